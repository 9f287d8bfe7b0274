// Reading YouTube's json3 caption format ({events: [{tStartMs, dDurationMs, segs: [{utf8}]}]}) into cues.
import { CaptionFormatError } from "./caption-format-error.js";
import type { CaptionCue } from "../domain/transcript.js";
import { cleanCueText } from "./caption-text.js";

interface Json3Event {
  tStartMs?: unknown;
  dDurationMs?: unknown;
  segs?: unknown;
}

function segmentText(segs: unknown): string {
  if (!Array.isArray(segs)) return "";
  return segs.map((seg) => (typeof seg?.utf8 === "string" ? seg.utf8 : "")).join("");
}

/** The cues of a json3 track: events without words (window definitions, "\n" line breaks) are left out. */
export function parseJson3(text: string): CaptionCue[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new CaptionFormatError("The captions are not valid json3: not JSON.");
  }
  const events = (document as { events?: unknown } | null)?.events;
  if (!Array.isArray(events))
    throw new CaptionFormatError("The captions are not valid json3: no events list.");
  const cues: CaptionCue[] = [];
  for (const event of events as Json3Event[]) {
    if (typeof event !== "object" || event === null) continue;
    const words = cleanCueText(segmentText(event.segs));
    if (words === "") continue;
    const startMs = typeof event.tStartMs === "number" && event.tStartMs >= 0 ? event.tStartMs : 0;
    const durationMs =
      typeof event.dDurationMs === "number" && event.dDurationMs >= 0 ? event.dDurationMs : 0;
    cues.push({ startMs, endMs: startMs + durationMs, text: words });
  }
  return endAtNextStart(cues);
}

/**
 * Automatic tracks keep each line on screen while the next one rolls in, so an event lasts into the next
 * (by up to ten seconds): a line ends where the next begins, or a row's source would end a line late.
 */
function endAtNextStart(cues: readonly CaptionCue[]): CaptionCue[] {
  return cues.map((cue, i) => {
    const next = cues[i + 1];
    if (next === undefined || next.startMs <= cue.startMs || next.startMs >= cue.endMs) return cue;
    return { ...cue, endMs: next.startMs };
  });
}
