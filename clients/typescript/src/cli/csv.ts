// CSV (RFC 4180) of a job's rows: `video_id`, then the schema's columns, every field quoted when it must be.

export type Cell = string | number | boolean | null | undefined;

/** A field as RFC 4180 writes it: in double quotes (inner ones doubled) when it holds `,`, `"`, CR or LF. */
export function csvField(value: Cell): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Lines end in CRLF, as RFC 4180 says and spreadsheets expect. */
export function csvLine(values: readonly Cell[]): string {
  return values.map(csvField).join(",") + "\r\n";
}

export interface CsvRow {
  readonly videoId: string;
  readonly cells: Readonly<Record<string, Cell>>;
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
  let text = csvLine(["video_id", ...columns]);
  for (const row of rows) text += csvLine([row.videoId, ...columns.map((column) => row.cells[column])]);
  return text;
}
