// One chunk's answer made into rows and their sources: each row fitted to the typed columns, each kept
// row given the span its lines make in the chunk (narrowed to one line when wider than a moment) starting
// at the moment its values are said, their text, and the columns that text does not hold.
import type { ColumnSpec } from "../domain/schema-definition.js";
import type { Row, RowSource, SourcedRows } from "./extractor.js";
import type { AnsweredRow } from "./model-answer.js";
import { heldColumnCount, unverifiedColumns } from "./quote-matching.js";
import { fitRow } from "./row-coercion.js";
import { sourceAtMoment } from "./row-moments.js";
import { lineRange, narrowedRange, sourceOfRange } from "./row-sources.js";
import type { TranscriptChunk } from "./transcript-chunks.js";

export interface ChunkRows extends SourcedRows {
  /** Values that fit neither their typed column's type nor its enum, so became null. */
  readonly nulledValues: number;
}

/** The chunk's rows, in the answer's order; a row that fitting leaves empty is dropped with its span. */
export function chunkRows(
  answered: readonly AnsweredRow[],
  chunk: TranscriptChunk,
  specs: readonly ColumnSpec[],
  durationSeconds: number,
): ChunkRows {
  const rows: Row[] = [];
  const sources: RowSource[] = [];
  let nulledValues = 0;
  for (const item of answered) {
    const fitted = fitRow(item.row, specs);
    nulledValues += fitted.nulledValues;
    if (fitted.row === null) continue;
    rows.push(fitted.row);
    const row = fitted.row;
    const named = lineRange(chunk, item.firstLine, item.lastLine);
    const range = narrowedRange(chunk, named, (text) => heldColumnCount(row, specs, text));
    const lines = chunk.cues.slice(range.from - 1, range.to);
    const source = sourceAtMoment(sourceOfRange(chunk, range, durationSeconds), lines, row, specs);
    sources.push({ ...source, unverified: unverifiedColumns(row, specs, source.quote) });
  }
  return { rows, sources, nulledValues };
}
