// The form a done video's rows are kept in until the handover (`videos.rows`, JSON text, sealed on
// PostgreSQL): `{"results": [row, ...], "sources": [{"start_seconds", "end_seconds", "quote",
// "unverified"}, ...]}`. Written by the settlement, read back by the handover; the sources and their quotes
// travel inside the rows' value, so they are sealed, handed over and deleted exactly as the rows are.
import type { CellValue, Row, RowSource, SourcedRows } from "./extractor.js";

interface StoredSource {
  readonly start_seconds: number;
  readonly end_seconds: number;
  /** Absent from sources stored before quotes were kept. */
  readonly quote?: string;
  readonly unverified?: readonly string[];
}

interface StoredRows {
  readonly results: Row[];
  readonly sources: StoredSource[];
  /** The page a video of another platform was read from, which its sources link to (with the moment). */
  readonly page_url?: string;
}

/** Stored rows as read back: the page is there for a video of another platform than YouTube. */
export interface StoredSourcedRows extends SourcedRows {
  readonly pageUrl?: string;
}

/** The JSON text to store for a done video's rows and their sources (and its page, when not YouTube's). */
export function storedRowsText({ rows, sources }: SourcedRows, pageUrl?: string): string {
  const stored: StoredRows = {
    ...(pageUrl === undefined ? {} : { page_url: pageUrl }),
    results: rows,
    sources: sources.map((source) => ({
      start_seconds: source.startSeconds,
      end_seconds: source.endSeconds,
      quote: source.quote,
      unverified: source.unverified,
    })),
  };
  return JSON.stringify(stored);
}

/** Whether a value is one the evidence check applies to (`quote-matching.ts`): a string or a number. */
const isCheckable = (value: CellValue | undefined) => typeof value === "string" || typeof value === "number";

/**
 * The evidence of a row stored without any: nothing is quoted, so every string or number value is
 * unverified. (The schema is not at hand here, so an enum column's value is counted too: a row from before
 * quotes were kept claims no evidence.)
 */
function unquoted(row: Row, start: number, end: number): RowSource {
  const unverified = Object.keys(row).filter((column) => isCheckable(row[column]));
  return { startSeconds: start, endSeconds: end, quote: "", unverified };
}

/**
 * The rows and sources of a stored value. Rows settled before sources were kept are a bare list; all
 * that is known of where each came from is the video, so each gets the whole of it, from 0 to
 * `durationSeconds`. Rows settled before quotes were kept get an empty quote.
 */
export function readStoredRows(text: string, durationSeconds: number): StoredSourcedRows {
  const stored = JSON.parse(text) as StoredRows | Row[];
  if (Array.isArray(stored)) {
    return { rows: stored, sources: stored.map((row) => unquoted(row, 0, durationSeconds)) };
  }
  return {
    ...(stored.page_url === undefined ? {} : { pageUrl: stored.page_url }),
    rows: stored.results,
    sources: stored.sources.map((source, i) =>
      source.quote === undefined
        ? unquoted(stored.results[i] ?? {}, source.start_seconds, source.end_seconds)
        : {
            startSeconds: source.start_seconds,
            endSeconds: source.end_seconds,
            quote: source.quote,
            unverified: source.unverified ?? [],
          },
    ),
  };
}
