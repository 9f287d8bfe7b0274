// Joins the rows of a transcript's chunks in order, dropping exact repeats such as the overlaps produce.
import type { Row, RowSource, SourcedRows } from "./extractor.js";

/** A key equal for two rows exactly when every column holds the same value (1 and "1" differ). */
function rowKey(row: Row, columns: readonly string[]): string {
  return JSON.stringify(columns.map((column) => row[column] ?? null));
}

/**
 * The rows of every chunk, chunk after chunk, keeping the first of rows that are equal in every column.
 * A kept row keeps its own source, so a row the overlap showed twice has the one of its first chunk.
 */
export function mergeChunkRows(chunks: readonly SourcedRows[], columns: readonly string[]): SourcedRows {
  const seen = new Set<string>();
  const rows: Row[] = [];
  const sources: RowSource[] = [];
  for (const chunk of chunks) {
    chunk.rows.forEach((row, i) => {
      const key = rowKey(row, columns);
      if (seen.has(key)) return;
      seen.add(key);
      rows.push(row);
      sources.push(chunk.sources[i] as RowSource);
    });
  }
  return { rows, sources };
}
