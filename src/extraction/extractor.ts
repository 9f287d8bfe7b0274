// The port to the language model: an extractor turns a transcript into rows under a job's schema.
import type { Transcript } from "../domain/transcript.js";
import type { SchemaDefinition } from "../domain/schema-definition.js";

export type CellValue = string | number | boolean | null;

/** One extracted row: exactly the schema's columns, in the schema's order. */
export type Row = Record<string, CellValue>;

/**
 * Where in the video a row was drawn from: the span of the transcript lines the model named for it,
 * in seconds from the video's start (to the millisecond, as captions are timed), and the evidence.
 */
export interface RowSource {
  readonly startSeconds: number;
  readonly endSeconds: number;
  /** The text of those lines as the model saw them, joined by single spaces. */
  readonly quote: string;
  /** The row's columns whose string or number value the quote does not hold (`quote-matching.ts`). */
  readonly unverified: readonly string[];
}

/** Rows and their sources, in the same order: `sources[i]` is where `rows[i]` came from. */
export interface SourcedRows {
  readonly rows: Row[];
  readonly sources: RowSource[];
}

/** The tokens the model reported in `usage` for the answers used (0 where a server reports none). */
export interface ModelUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export interface Extraction extends SourcedRows {
  readonly chunkCount: number;
  readonly modelUsage: ModelUsage;
  /**
   * Values the model gave that fit neither their typed column's type nor its enum and so became null.
   * Logged, not reported: the interface fixes the keys of a video's `usage`.
   */
  readonly nulledValues: number;
}

/** The model failed or kept answering garbage after retries: the video fails `extraction_failed`. */
export class ExtractionError extends Error {
  readonly code = "extraction_failed";
  readonly retryable = true;
}

export interface ExtractOptions {
  readonly signal?: AbortSignal;
}

export interface Extractor {
  extractRows(
    transcript: Transcript,
    schema: SchemaDefinition,
    options?: ExtractOptions,
  ): Promise<Extraction>;
}
