// `jobs rows --sources`: each row's source start, URL and quote as extra columns, under names that differ
// from every column of the rows (and from `video_id`), whatever the schema calls its columns.
import type { RowTable } from "./csv.js";

const sourceFields = [
  ["source_start_seconds", "start_seconds"],
  ["source_url", "url"],
  ["source_quote", "quote"],
] as const;

/**
 * The names the source's fields take: `source_start_seconds`, `source_url`, `source_quote`, each led by
 * one more `_` until no column (nor `video_id`) has that name. A schema column may be named anything of
 * 1 to 64 characters, so no fixed name could be safe; this one always is.
 */
export function sourceColumnNames(columns: readonly string[]): readonly string[] {
  const taken = new Set(["video_id", ...columns]);
  return sourceFields.map(([name]) => {
    let chosen: string = name;
    while (taken.has(chosen)) chosen = `_${chosen}`;
    taken.add(chosen);
    return chosen;
  });
}

/** The table with its rows' source start, URL and quote as columns after their own. */
export function withSourceColumns(table: RowTable): RowTable {
  const names = sourceColumnNames(table.columns);
  return {
    columns: [...table.columns, ...names],
    rows: table.rows.map((row) => {
      const extra = Object.fromEntries(
        sourceFields.map(([, field], i) => [names[i] as string, row.source?.[field] ?? null]),
      );
      return { ...row, cells: { ...row.cells, ...extra } };
    }),
  };
}
