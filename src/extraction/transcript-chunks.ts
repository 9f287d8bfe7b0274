// Splits a transcript into numbered lines (`transcript-lines.ts`) and the lines into chunks of a token
// budget, each carrying a little of the previous one.
import type { CaptionCue } from "../domain/transcript.js";
import { estimateTokens, splitByTokens } from "./token-estimate.js";
import { defaultLines, groupIntoLines, type LineOptions, type TranscriptLine } from "./transcript-lines.js";

export interface ChunkingOptions extends Partial<LineOptions> {
  /**
   * The most estimated tokens of transcript in one chunk (one model request). Measured in `npm run bench`'s
   * prompt-cost section: the instructions are sent once a chunk, so bigger chunks cost fewer prompt tokens,
   * while more chunks are asked in parallel and each answer is shorter.
   */
  readonly chunkTokens: number;
  /**
   * How many tokens of whole lines at the end of a chunk start the next one too, so that an item
   * mentioned across a boundary is seen whole at least once; the last line is carried whatever its size.
   * The merge drops the duplicate rows this gives.
   */
  readonly overlapTokens: number;
}

/**
 * 8,000 estimated tokens (about 7,000 of OpenAI's o200k, half an hour of speech) fit every current
 * context window with room for the answer; the overlap carries about one line (`transcript-lines.ts`), the
 * least that still shows an item said across a boundary whole once.
 */
export const defaultChunking: ChunkingOptions = { chunkTokens: 8000, overlapTokens: 120 };

/** What a line's number and line break (`\n12. `) cost in the prompt, on top of its text. */
export const lineOverheadTokens = 3;

/**
 * A line's text never takes more than this share of a chunk (a longer cue is cut), so that chunks end near
 * their budget and a chunk always has room for the previous chunk's last line and a new one.
 */
const maxLineShare = 0.25;

/** The smallest chunk that still holds a cue's time stamp and some text. */
const minimumChunkTokens = 16;

export interface TranscriptChunk {
  /** 0-based position among the transcript's chunks. */
  readonly index: number;
  readonly startMs: number;
  readonly endMs: number;
  /**
   * The numbered lines, each one or more whole cues with the caption times kept (a row's source is read
   * from them); a cue longer than a line may be is cut into pieces, its time shared out between them.
   */
  readonly cues: readonly TranscriptLine[];
  /** The chunk's estimated size, time stamps included. */
  readonly tokens: number;
}

/** A line's estimated cost in the prompt. */
export function lineTokens(line: CaptionCue): number {
  return estimateTokens(line.text) + lineOverheadTokens;
}

export function validateChunking(options: ChunkingOptions): ChunkingOptions {
  const { chunkTokens, overlapTokens, maxLineSeconds, minLineSeconds } = options;
  for (const [name, value] of Object.entries({ maxLineSeconds, minLineSeconds })) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw new RangeError(`${name} must be a number >= 0; got ${value}.`);
  }
  if (!Number.isInteger(chunkTokens) || chunkTokens < minimumChunkTokens) {
    throw new RangeError(`chunkTokens must be an integer >= ${minimumChunkTokens}; got ${chunkTokens}.`);
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= chunkTokens) {
    throw new RangeError(`overlapTokens must be an integer from 0 to chunkTokens - 1; got ${overlapTokens}.`);
  }
  return options;
}

/** The most estimated tokens of text one line of a chunk of `chunkTokens` may hold. */
function maxLineTokens(chunkTokens: number): number {
  return Math.max(1, Math.floor(chunkTokens * maxLineShare));
}

/** Cue text on one line; blank cues are dropped, and a cue over a line's budget is cut with its time shared out. */
function normalisedCues(cues: readonly CaptionCue[], maxTokens: number): CaptionCue[] {
  const out: CaptionCue[] = [];
  for (const cue of cues) {
    const text = cue.text.replace(/\s+/g, " ").trim();
    if (text === "") continue;
    const line = { startMs: cue.startMs, endMs: Math.max(cue.startMs, cue.endMs), text };
    if (estimateTokens(text) <= maxTokens) {
      out.push(line);
      continue;
    }
    const pieces = splitByTokens(text, maxTokens);
    const span = line.endMs - line.startMs;
    let offset = 0;
    const timeAt = (position: number) => line.startMs + Math.round((span * position) / text.length);
    for (const piece of pieces) {
      // The pieces are the text's words in order, so each is found after the previous one.
      const at = Math.max(offset, text.indexOf(piece, offset));
      offset = at + piece.length;
      out.push({ startMs: timeAt(at), endMs: timeAt(offset), text: piece });
    }
  }
  return out;
}

function chunkOf(index: number, cues: TranscriptLine[], tokens: number): TranscriptChunk {
  const startMs = cues[0]?.startMs ?? 0;
  const endMs = cues.reduce((end, cue) => Math.max(end, cue.endMs), startMs);
  return { index, startMs, endMs, cues, tokens };
}

/** The transcript's numbered lines: its cues, normalised, grouped as `options` say (by default, `defaultLines`). */
export function transcriptLines(cues: readonly CaptionCue[], options: ChunkingOptions): TranscriptLine[] {
  const lineOptions = {
    maxLineSeconds: options.maxLineSeconds ?? defaultLines.maxLineSeconds,
    minLineSeconds: options.minLineSeconds ?? defaultLines.minLineSeconds,
  };
  const maxTokens = maxLineTokens(options.chunkTokens);
  return groupIntoLines(normalisedCues(cues, maxTokens), lineOptions, maxTokens, estimateTokens);
}

/**
 * Where the lines a chunk carries over from the previous one (`lines`) start: its trailing whole lines
 * within the overlap, and always its last line when there is an overlap at all, however long (a fact said
 * across the boundary is then seen whole in the next chunk), as long as they leave room for the next
 * line (`nextTokens`). Lines are capped at a quarter of a chunk, so the last line always fits beside the
 * next one. The carried lines and the next one never all fit in the previous chunk, so every chunk has
 * new text.
 */
function carriedFrom(
  lines: readonly TranscriptLine[],
  nextTokens: number,
  { chunkTokens, overlapTokens }: ChunkingOptions,
): number {
  if (overlapTokens === 0) return lines.length;
  let carried = 0;
  let from = lines.length;
  while (from > 0) {
    const previous = lineTokens(lines[from - 1] as TranscriptLine);
    const beyondOverlap = from < lines.length && carried + previous > overlapTokens;
    if (beyondOverlap || carried + previous + nextTokens > chunkTokens) break;
    carried += previous;
    from--;
  }
  return from;
}

/** The transcript's chunks of numbered lines, in order; an empty transcript has none. */
export function chunkTranscript(
  cues: readonly CaptionCue[],
  options: ChunkingOptions = defaultChunking,
): TranscriptChunk[] {
  const { chunkTokens } = validateChunking(options);
  const chunks: TranscriptChunk[] = [];
  let current: TranscriptLine[] = [];
  let currentTokens = 0;
  for (const line of transcriptLines(cues, options)) {
    const tokens = lineTokens(line);
    if (current.length > 0 && currentTokens + tokens > chunkTokens) {
      chunks.push(chunkOf(chunks.length, current, currentTokens));
      const from = carriedFrom(current, tokens, options);
      current = current.slice(from);
      currentTokens = current.reduce((sum, carried) => sum + lineTokens(carried), 0);
    }
    current.push(line);
    currentTokens += tokens;
  }
  if (current.length > 0) chunks.push(chunkOf(chunks.length, current, currentTokens));
  return chunks;
}
