// Undoing roll-up captions: YouTube's automatic WebVTT repeats each line in the next cue, so a transcript
// read cue by cue would say everything twice (three times, with the zero-length "flash" cues between).
import type { CaptionCue } from "../domain/transcript.js";

/** How many lines at the start of `next` repeat the lines at the end of `previous`. */
function repeatedLines(previous: readonly string[], next: readonly string[]): number {
  for (let size = Math.min(previous.length, next.length); size > 0; size--) {
    let same = true;
    for (let i = 0; i < size && same; i++) {
      same = previous[previous.length - size + i] === next[i];
    }
    if (same) return size;
  }
  return 0;
}

/**
 * The cues with the rolled-up repeats removed, when the track rolls up; other tracks come back as they are,
 * so a line that a person really says twice in a row stays twice in ordinary captions.
 */
export function removeRollingRepeats(cues: readonly CaptionCue[]): CaptionCue[] {
  const lines = cues.map((cue) => cue.text.split("\n"));
  const repeats = lines.map((cueLines, i) => (i === 0 ? 0 : repeatedLines(lines[i - 1] ?? [], cueLines)));
  const rolling = repeats.filter((count) => count > 0).length;
  // Roll-up repeats almost every cue; ordinary captions repeat one now and then ("No." "No.").
  if (rolling < 2 || rolling * 3 < cues.length - 1) return [...cues];
  const result: CaptionCue[] = [];
  cues.forEach((cue, i) => {
    const fresh = (lines[i] ?? []).slice(repeats[i] ?? 0);
    if (fresh.length > 0) {
      result.push({ startMs: cue.startMs, endMs: cue.endMs, text: fresh.join("\n") });
      return;
    }
    // A cue of repeats only keeps the earlier lines on screen: their cue lasts as long, so the end of the
    // last cue stays the end of the captions.
    const last = result.at(-1);
    if (last !== undefined && cue.endMs > last.endMs)
      result[result.length - 1] = { ...last, endMs: cue.endMs };
  });
  return result;
}
