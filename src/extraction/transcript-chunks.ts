// Splits a transcript's cues into chunks of a token budget, each carrying a little of the previous one.
import type { CaptionCue } from "../captions/caption-source.js";
import { estimateTokens, splitByTokens } from "./token-estimate.js";

export interface ChunkingOptions {
  /** The most estimated tokens of transcript in one chunk (one model request). */
  readonly chunkTokens: number;
  /**
   * How many tokens of whole cues at the end of a chunk start the next one too, so that an item
   * mentioned across a boundary is seen whole at least once. The merge drops the duplicate rows this gives.
   */
  readonly overlapTokens: number;
}

export const defaultChunking: ChunkingOptions = { chunkTokens: 3000, overlapTokens: 150 };

/** What a cue's line number and time stamp (`12. [1:02:03] `) cost in the prompt, on top of its text. */
export const cueOverheadTokens = 6;

/** The smallest chunk that still holds a cue's time stamp and some text. */
const minimumChunkTokens = 16;

export interface TranscriptChunk {
  /** 0-based position among the transcript's chunks. */
  readonly index: number;
  readonly startMs: number;
  readonly endMs: number;
  /**
   * The cues, with their text on one line each and their caption times kept (a row's source is read
   * from them); a cue longer than a chunk comes cut into pieces, its time shared out between them.
   */
  readonly cues: readonly CaptionCue[];
  /** The chunk's estimated size, time stamps included. */
  readonly tokens: number;
}

/** A cue's estimated cost in the prompt. */
export function cueTokens(cue: CaptionCue): number {
  return estimateTokens(cue.text) + cueOverheadTokens;
}

export function validateChunking(options: ChunkingOptions): ChunkingOptions {
  const { chunkTokens, overlapTokens } = options;
  if (!Number.isInteger(chunkTokens) || chunkTokens < minimumChunkTokens) {
    throw new RangeError(`chunkTokens must be an integer >= ${minimumChunkTokens}; got ${chunkTokens}.`);
  }
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= chunkTokens) {
    throw new RangeError(`overlapTokens must be an integer from 0 to chunkTokens - 1; got ${overlapTokens}.`);
  }
  return options;
}

/** Cue text on one line; blank cues are dropped, and a cue over the budget is cut with its time shared out. */
function normalisedCues(cues: readonly CaptionCue[], chunkTokens: number): CaptionCue[] {
  const out: CaptionCue[] = [];
  for (const cue of cues) {
    const text = cue.text.replace(/\s+/g, " ").trim();
    if (text === "") continue;
    const line = { startMs: cue.startMs, endMs: Math.max(cue.startMs, cue.endMs), text };
    if (cueTokens(line) <= chunkTokens) {
      out.push(line);
      continue;
    }
    const pieces = splitByTokens(text, chunkTokens - cueOverheadTokens);
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

function chunkOf(index: number, cues: CaptionCue[], tokens: number): TranscriptChunk {
  const startMs = cues[0]?.startMs ?? 0;
  const endMs = cues.reduce((end, cue) => Math.max(end, cue.endMs), startMs);
  return { index, startMs, endMs, cues, tokens };
}

/** The transcript's chunks in order; an empty transcript has none. */
export function chunkTranscript(
  cues: readonly CaptionCue[],
  options: ChunkingOptions = defaultChunking,
): TranscriptChunk[] {
  const { chunkTokens, overlapTokens } = validateChunking(options);
  const chunks: TranscriptChunk[] = [];
  let current: CaptionCue[] = [];
  let currentTokens = 0;
  for (const cue of normalisedCues(cues, chunkTokens)) {
    const tokens = cueTokens(cue);
    if (current.length > 0 && currentTokens + tokens > chunkTokens) {
      chunks.push(chunkOf(chunks.length, current, currentTokens));
      // Carry trailing whole cues, as long as they stay within the overlap and leave room for this cue.
      // The carried cues and this one never all fit in the previous chunk, so every chunk has new text.
      let carried = 0;
      let from = current.length;
      while (from > 0) {
        const previous = cueTokens(current[from - 1] as CaptionCue);
        if (carried + previous > overlapTokens || carried + previous + tokens > chunkTokens) break;
        carried += previous;
        from--;
      }
      current = current.slice(from);
      currentTokens = carried;
    }
    current.push(cue);
    currentTokens += tokens;
  }
  if (current.length > 0) chunks.push(chunkOf(chunks.length, current, currentTokens));
  return chunks;
}
