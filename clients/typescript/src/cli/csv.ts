// The CSV of a job's rows: `video_id`, then the schema's columns, written by the package's one CSV writer.
import { type CsvCell, csvText } from "../csv.js";

export interface CsvRow {
  readonly videoId: string;
  readonly cells: Readonly<Record<string, CsvCell>>;
  /** Where the row came from, as the read gave it (`--sources` adds its fields as columns). */
  readonly source?: { readonly start_seconds: number; readonly url: string; readonly quote: string };
}

/** A job's rows and the columns they are written under (the schema's, and any added after them). */
export interface RowTable {
  readonly columns: readonly string[];
  readonly rows: readonly CsvRow[];
}

/** The CSV of the table: the header `video_id` and its columns (also when it has no rows), then a line a row. */
export function rowsToCsv({ columns, rows }: RowTable): string {
  return csvText(
    ["video_id", ...columns],
    rows.map((row) => [row.videoId, ...columns.map((column) => row.cells[column] ?? null)]),
  );
}
