// Where a row came from: the transcript lines the model named for it, checked against its chunk and read
// back as the caption times of those lines. The model's numbers are never trusted as they come.
import type { RowSource } from "./extractor.js";
import type { TranscriptChunk } from "./transcript-chunks.js";

/**
 * A line number the model gave, as a line of a chunk of `lineCount` lines (numbered from 1): clamped into
 * the chunk when it is an integer, else (missing, null, a fraction, a string) `fallback`.
 */
function lineNumber(value: unknown, lineCount: number, fallback: number): number {
  if (typeof value !== "number" || !Number.isInteger(value)) return fallback;
  return Math.min(lineCount, Math.max(1, value));
}

/** Milliseconds as seconds, to the millisecond: the precision captions are timed to. */
function toSeconds(ms: number): number {
  return Math.round(ms) / 1000;
}

/** Where a row came from, before its values are checked against the quote. */
export type LinesSource = Omit<RowSource, "unverified">;

/** The widest a source may be: a row is one moment of a talk, and a span wider than this locates nothing. */
export const maxSourceSeconds = 90;

/** Lines `from` to `to` of a chunk, numbered from 1, both included. */
export interface LineRange {
  readonly from: number;
  readonly to: number;
}

/**
 * The lines the model named, `firstLine` to `lastLine`, as a range of `chunk`'s lines: a number outside
 * the chunk is clamped to it, a missing or non-integer one stands for the chunk's edge (so a row without
 * lines gets the whole chunk), and a reversed span is turned round.
 */
export function lineRange(chunk: TranscriptChunk, firstLine: unknown, lastLine: unknown): LineRange {
  const lineCount = chunk.cues.length;
  const first = lineNumber(firstLine, lineCount, 1);
  const last = lineNumber(lastLine, lineCount, lineCount);
  return first <= last ? { from: first, to: last } : { from: last, to: first };
}

function spanMs(chunk: TranscriptChunk, { from, to }: LineRange): number {
  const lines = chunk.cues.slice(from - 1, to);
  const end = lines.reduce((latest, cue) => Math.max(latest, cue.endMs), 0);
  return end - (lines[0]?.startMs ?? 0);
}

/**
 * The range as it is when it spans at most `maxSourceSeconds`; else the one line of it, or two adjacent
 * lines (a phrase can run over a line's end), that hold the most of the row's values (`heldIn` counts them
 * in a text), the first and the shorter of equals. A model that names minutes for a row (or no lines at
 * all, which is the whole chunk) still says where the row is by the words it copied.
 */
export function narrowedRange(
  chunk: TranscriptChunk,
  range: LineRange,
  heldIn: (text: string) => number,
): LineRange {
  if (spanMs(chunk, range) <= maxSourceSeconds * 1000) return range;
  const textOf = ({ from, to }: LineRange) =>
    chunk.cues
      .slice(from - 1, to)
      .map((cue) => cue.text)
      .join(" ");
  let best: LineRange = { from: range.from, to: range.from };
  let bestHeld = -1;
  // Single lines first, so that two lines win only by holding more than any one line does.
  for (const size of [1, 2]) {
    for (let from = range.from; from + size - 1 <= range.to; from++) {
      const candidate = { from, to: from + size - 1 };
      if (spanMs(chunk, candidate) > maxSourceSeconds * 1000) continue;
      const held = heldIn(textOf(candidate));
      if (held > bestHeld) {
        best = candidate;
        bestHeld = held;
      }
    }
  }
  return best;
}

/**
 * The source of a row drawn from `range` of `chunk`'s lines: from the start of the first line's cue to the
 * end of the last's, inside the chunk, and cut to the video's length (`durationSeconds`), which a caption
 * track may run past. The quote is those lines' text.
 */
export function sourceOfRange(
  chunk: TranscriptChunk,
  range: LineRange,
  durationSeconds: number,
): LinesSource {
  const lines = chunk.cues.slice(range.from - 1, range.to);
  const within = (ms: number) => Math.min(chunk.endMs, Math.max(chunk.startMs, ms));
  const startMs = within(lines[0]?.startMs ?? chunk.startMs);
  const endMs = within(lines.reduce((end, cue) => Math.max(end, cue.endMs), startMs));
  const videoEndMs = Number.isFinite(durationSeconds) ? Math.max(0, durationSeconds * 1000) : Infinity;
  return {
    startSeconds: toSeconds(Math.min(startMs, videoEndMs)),
    endSeconds: toSeconds(Math.min(endMs, videoEndMs)),
    quote: lines.map((line) => line.text).join(" "),
  };
}

/** The source of the lines the model named, `firstLine` to `lastLine`, as `lineRange` reads them. */
export function sourceOfLines(
  chunk: TranscriptChunk,
  firstLine: unknown,
  lastLine: unknown,
  durationSeconds: number,
): LinesSource {
  return sourceOfRange(chunk, lineRange(chunk, firstLine, lastLine), durationSeconds);
}
