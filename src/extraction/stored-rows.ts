// The form a done video's rows are kept in until the handover (`videos.rows`, JSON text, sealed on
// PostgreSQL): `{"results": [row, ...], "sources": [{"start_seconds", "end_seconds"}, ...]}`. Written by
// the settlement, read back by the handover; the sources travel inside the rows' value, so they are
// sealed, handed over and deleted exactly as the rows are.
import type { Row, SourcedRows } from "./extractor.js";

interface StoredSource {
  readonly start_seconds: number;
  readonly end_seconds: number;
}

interface StoredRows {
  readonly results: Row[];
  readonly sources: StoredSource[];
}

/** The JSON text to store for a done video's rows and their sources. */
export function storedRowsText({ rows, sources }: SourcedRows): string {
  const stored: StoredRows = {
    results: rows,
    sources: sources.map((source) => ({
      start_seconds: source.startSeconds,
      end_seconds: source.endSeconds,
    })),
  };
  return JSON.stringify(stored);
}

/**
 * The rows and sources of a stored value. Rows settled before sources were kept are a bare list; all
 * that is known of where each came from is the video, so each gets the whole of it, from 0 to
 * `durationSeconds`.
 */
export function readStoredRows(text: string, durationSeconds: number): SourcedRows {
  const stored = JSON.parse(text) as StoredRows | Row[];
  if (Array.isArray(stored)) {
    return { rows: stored, sources: stored.map(() => ({ startSeconds: 0, endSeconds: durationSeconds })) };
  }
  return {
    rows: stored.results,
    sources: stored.sources.map((source) => ({
      startSeconds: source.start_seconds,
      endSeconds: source.end_seconds,
    })),
  };
}
