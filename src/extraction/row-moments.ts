// A row's moment: when the words it was drawn from begin, placed by the caption times of the cues inside
// its lines, so that its link opens at the words rather than at the start of a line of up to half a minute.
import { textTokens } from "./canonical-words.js";
import type { ColumnSpec } from "../domain/schema-definition.js";
import type { Row } from "./extractor.js";
import { evidenceStartToken } from "./quote-matching.js";
import type { LinesSource } from "./row-sources.js";
import { cuesOf, type TranscriptLine } from "./transcript-lines.js";

/**
 * A cue that gives each of its words more time than this holds silence or was never timed word by word
 * (a transcript without segment times is one cue over the whole audio): its time says nothing of where
 * inside it a word is, so a moment in it is its start. Speech runs at 100 to 250 words a minute.
 */
const slowestWordMs = 1000;

/**
 * When the `token`-th whitespace-separated token of the lines' text (from 0) is said: in the cue that holds
 * it, after the share of the cue's time that the tokens before it take, less one token's share. A cue's
 * words are not evenly spread (a cue often runs on past its last word), and a moment a word early still
 * opens at the word, one a word late misses it; undefined when the lines have fewer tokens.
 */
export function tokenMomentMs(lines: readonly TranscriptLine[], token: number): number | undefined {
  let before = token;
  for (const line of lines) {
    for (const cue of cuesOf(line)) {
      const count = textTokens(cue.text).length;
      if (before < count) {
        const span = Math.max(0, cue.endMs - cue.startMs);
        if (span > slowestWordMs * count) return cue.startMs;
        return cue.startMs + Math.floor((span * Math.max(0, before - 1)) / count);
      }
      before -= count;
    }
  }
  return undefined;
}

/**
 * The source with its start moved to the moment the row's values begin to be said in its lines
 * (`evidenceStartToken`), within the source's span, which still ends where the lines do and so holds the whole
 * quote. A source whose quote holds none of the row's values keeps the start of its first line.
 */
export function sourceAtMoment(
  source: LinesSource,
  lines: readonly TranscriptLine[],
  row: Row,
  specs: readonly ColumnSpec[],
): LinesSource {
  const token = evidenceStartToken(row, specs, source.quote);
  const momentMs = token === undefined ? undefined : tokenMomentMs(lines, token);
  if (momentMs === undefined) return source;
  // Down to the millisecond, so that rounding never puts the moment after the words.
  const startSeconds = Math.floor(momentMs) / 1000;
  return {
    ...source,
    startSeconds: Math.min(source.endSeconds, Math.max(source.startSeconds, startSeconds)),
  };
}
