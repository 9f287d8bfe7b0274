// Joins the rows of a transcript's chunks in order, dropping exact repeats such as the overlaps produce.
import type { Row } from "./extractor.js";

/** A key equal for two rows exactly when every column holds the same value (1 and "1" differ). */
function rowKey(row: Row, columns: readonly string[]): string {
  return JSON.stringify(columns.map((column) => row[column] ?? null));
}

/** The rows of every chunk, chunk after chunk, keeping the first of rows that are equal in every column. */
export function mergeChunkRows(rowsByChunk: readonly (readonly Row[])[], columns: readonly string[]): Row[] {
  const seen = new Set<string>();
  const merged: Row[] = [];
  for (const rows of rowsByChunk) {
    for (const row of rows) {
      const key = rowKey(row, columns);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(row);
    }
  }
  return merged;
}
