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

/**
 * The source of a row the model drew from lines `firstLine` to `lastLine` of `chunk`: from the start of
 * the first line's cue to the end of the last's. A number outside the chunk is clamped to it, a missing
 * or non-integer one stands for the chunk's edge (so a row without lines gets the whole chunk), and a
 * reversed span is turned round. The span then lies inside the chunk, and is cut to the video's length
 * (`durationSeconds`), which a caption track may run past. The quote is those lines' text.
 */
export function sourceOfLines(
  chunk: TranscriptChunk,
  firstLine: unknown,
  lastLine: unknown,
  durationSeconds: number,
): LinesSource {
  const lineCount = chunk.cues.length;
  const first = lineNumber(firstLine, lineCount, 1);
  const last = lineNumber(lastLine, lineCount, lineCount);
  const [from, to] = first <= last ? [first, last] : [last, first];
  const lines = chunk.cues.slice(from - 1, to);
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
