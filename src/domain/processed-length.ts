// How long a video is for its charge and its `duration_seconds`: the length of what was processed (the span of
// its captions' words, or the audio actually sent to speech-to-text), never more than the page or platform
// claims, since a page's own words about its length are whatever its author wrote.

/** A timed stretch of a transcript, as far as these rules need it. */
export interface TimedText {
  readonly startMs: number;
  readonly endMs: number;
  readonly text: string;
}

/**
 * The span of the words: from the start of the first cue that holds any to the end of the last that does,
 * in seconds; 0 without words. Cues without words (a page's empty cue at 10:00:00) count for nothing, nor
 * does the silence before the first word.
 */
export function wordsSpanSeconds(cues: readonly TimedText[]): number {
  let firstMs = Infinity;
  let lastMs = -Infinity;
  for (const cue of cues) {
    if (cue.text.trim() === "" || !Number.isFinite(cue.startMs) || !Number.isFinite(cue.endMs)) continue;
    firstMs = Math.min(firstMs, cue.startMs, cue.endMs);
    lastMs = Math.max(lastMs, cue.endMs, cue.startMs);
  }
  return lastMs > firstMs ? (lastMs - firstMs) / 1000 : 0;
}

/** A length the page or platform claims: only a positive, finite number of seconds is a claim at all. */
export function claimedSeconds(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The processed length, cut to the claim when there is one: `min(processed, claimed)`, never negative. */
export function billedSeconds(processed: number, claimed: number | null | undefined): number {
  const measured = Number.isFinite(processed) && processed > 0 ? processed : 0;
  const claim = claimedSeconds(claimed);
  return claim === undefined ? measured : Math.min(measured, claim);
}

/**
 * The seconds of audio sent: the pieces' own lengths (`pieceSeconds`) added up (never their end offsets, which carry the
 * encoder's start delay: a 60.0 s file cut into pieces ends at 60.02 s), each piece at least 0, the whole
 * never more than the media's measured length.
 */
export function sentSeconds(pieceSeconds: readonly (number | undefined)[], mediaSeconds: number): number {
  let total = 0;
  for (const own of pieceSeconds) {
    if (own !== undefined && Number.isFinite(own) && own > 0) total += own;
  }
  return Math.min(total, Math.max(0, mediaSeconds));
}

/** A segment's moments kept inside its own piece: a service's segment end past the piece is the piece's end. */
export function clampToPiece(
  startSeconds: number,
  endSeconds: number,
  pieceSeconds: number | undefined,
): { startSeconds: number; endSeconds: number } {
  const end = pieceSeconds !== undefined && Number.isFinite(pieceSeconds) ? pieceSeconds : Infinity;
  const start = Math.min(Math.max(0, startSeconds), end);
  return { startSeconds: start, endSeconds: Math.min(Math.max(start, endSeconds), end) };
}
