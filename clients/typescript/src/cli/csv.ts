// The CSV of a job's rows: `video_id`, then the schema's columns, written by the package's one CSV writer.
import { type CsvCell, csvText } from "../csv.js";

export interface CsvRow {
  readonly videoId: string;
  readonly cells: Readonly<Record<string, CsvCell>>;
  /** Where the row came from, as the read gave it (`--sources` adds its fields as columns). */
  readonly source?: { readonly start_seconds: number; readonly url: string; readonly quote: string };
}

/**
 * The CSV of `rows` under `columns`. Every row has exactly the schema's columns (the server keeps no
 * other), so the columns come from the rows themselves, in the order the first row gives them.
 */
export function rowsToCsv(rows: readonly CsvRow[]): string {
  const columns: string[] = [];
  for (const row of rows)
    for (const column of Object.keys(row.cells)) if (!columns.includes(column)) columns.push(column);
  return csvText(
    ["video_id", ...columns],
    rows.map((row) => [row.videoId, ...columns.map((column) => row.cells[column])]),
  );
}
