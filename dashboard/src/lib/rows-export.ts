// A taken job's rows as one table (a video column first, then every column any row has, each row with
// its source), as CSV and JSON.
import { csvText, type RowSource, type SettledJob } from "@vidrows/client";

type Cell = string | number | boolean | null;

export interface RowsTable {
  readonly columns: readonly string[];
  /** Each row with the video it came from, and where in it. */
  readonly rows: readonly TableRow[];
}

export interface TableRow {
  readonly videoId: string;
  readonly cells: Readonly<Record<string, Cell>>;
  readonly source: RowSource | undefined;
}

export function rowsTable(job: SettledJob): RowsTable {
  const columns: string[] = [];
  const rows: TableRow[] = [];
  for (const video of job.results) {
    if (video.rows === null) continue;
    const { results, sources } = video.rows;
    results.forEach((row, i) => {
      for (const column of Object.keys(row)) if (!columns.includes(column)) columns.push(column);
      rows.push({ videoId: video.video_id, cells: row, source: sources[i] });
    });
  }
  return { columns, rows };
}

/** Whether the rows were handed over before this read: a done video with no rows left. */
export function rowsAlreadyTaken(job: SettledJob): boolean {
  const done = job.results.filter((video) => video.status === "done");
  return done.length > 0 && done.every((video) => video.rows === null);
}

/** The table as the client package writes every CSV: quoted per RFC 4180, no cell a live formula. */
export function toCsv(table: RowsTable): string {
  return csvText(
    ["video_id", ...table.columns],
    table.rows.map((row) => [row.videoId, ...table.columns.map((column) => row.cells[column])]),
  );
}

export function toJson(job: SettledJob): string {
  return JSON.stringify(job, null, 2) + "\n";
}

/** Offers `text` as a file download; the data never leaves the browser. */
export function download(filename: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  // The browser has started the download by now; the object URL is not needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
