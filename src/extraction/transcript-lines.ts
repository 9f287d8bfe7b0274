// Groups caption cues into the numbered lines of a prompt: spans of about 20 seconds to half a minute.
//
// A cue is 2 to 8 seconds of speech, 5 to 8 words, and a numbered line costs about what such a cue's words
// do; a line per cue made the prompt twice the transcript. A line of several cues costs its number once,
// and still places a row within the seconds it spans (a row's source is the span of its lines).
import type { CaptionCue } from "../domain/transcript.js";

export interface LineOptions {
  /** The longest a line may span, from its first cue's start to its last cue's end. */
  readonly maxLineSeconds: number;
  /** A line ends at the end of a sentence, or at a pause, once it spans at least this long. */
  readonly minLineSeconds: number;
}

/**
 * Lines of 20 to 30 s: a row's moment comes from the cue times inside its line (`row-moments.ts`), not
 * from the line's start, so a longer line costs no precision, and each line saved is a token saved (a
 * 12-minute manual track: 57 lines at 8 s, 29 at 20 s).
 */
export const defaultLines: LineOptions = { maxLineSeconds: 30, minLineSeconds: 20 };

/** A numbered line: its cues' span and text, and the cues themselves, whose own times place a row's moment. */
export interface TranscriptLine extends CaptionCue {
  /** The cues the line joins, in order, when it joins more than one (a line of one cue is that cue). */
  readonly parts?: readonly CaptionCue[];
}

/** A silence between cues this long ends a line that is long enough: speakers pause between thoughts. */
const pauseMs = 1500;

const endsSentence = (text: string) => /[.!?…。！？]["'’”)\]]*$/u.test(text);

function lineOf(cues: readonly CaptionCue[]): TranscriptLine {
  const first = cues[0] as CaptionCue;
  if (cues.length === 1) return first;
  return {
    startMs: first.startMs,
    endMs: cues.reduce((end, cue) => Math.max(end, cue.endMs), first.startMs),
    text: cues.map((cue) => cue.text).join(" "),
    parts: cues,
  };
}

/** The cues a line joins, each with its own time. */
export function cuesOf(line: TranscriptLine): readonly CaptionCue[] {
  return line.parts ?? [line];
}

/**
 * The cues in order, joined into lines: a line takes the next cue while the whole still spans at most
 * `maxLineSeconds` and its text at most `maxLineTokens` (by `tokensOf`), and ends early, once it spans
 * `minLineSeconds`, after a cue that ends a sentence or before a pause. A cue alone longer than the limits
 * is a line of its own.
 */
export function groupIntoLines(
  cues: readonly CaptionCue[],
  options: LineOptions,
  maxLineTokens: number,
  tokensOf: (text: string) => number,
): TranscriptLine[] {
  const maxMs = options.maxLineSeconds * 1000;
  const minMs = options.minLineSeconds * 1000;
  const lines: TranscriptLine[] = [];
  let current: CaptionCue[] = [];
  let currentTokens = 0;
  let startMs = 0;
  let endMs = 0;
  const close = () => {
    if (current.length > 0) lines.push(lineOf(current));
    current = [];
    currentTokens = 0;
  };
  for (const cue of cues) {
    const tokens = tokensOf(cue.text) + 1;
    if (current.length > 0) {
      const tooLong = Math.max(endMs, cue.endMs) - startMs > maxMs || currentTokens + tokens > maxLineTokens;
      const longEnough = endMs - startMs >= minMs;
      const pause = cue.startMs - endMs >= pauseMs;
      const sentenceDone = endsSentence((current[current.length - 1] as CaptionCue).text);
      if (tooLong || (longEnough && (pause || sentenceDone))) close();
    }
    if (current.length === 0) {
      startMs = cue.startMs;
      endMs = cue.endMs;
    }
    current.push(cue);
    currentTokens += tokens;
    endMs = Math.max(endMs, cue.endMs);
  }
  close();
  return lines;
}
