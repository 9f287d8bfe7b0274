// Which caption format a text is in (WebVTT, SubRip or json3), and reading it whichever it is.
import type { CaptionCue } from "../domain/transcript.js";
import { parseJson3 } from "./json3.js";
import { parseTimedText } from "./timed-text.js";

export type CaptionFormat = "vtt" | "srt" | "json3";

const contentTypes: Record<string, CaptionFormat> = {
  "text/vtt": "vtt",
  "application/x-subrip": "srt",
  "application/srt": "srt",
  "text/srt": "srt",
  "text/x-srt": "srt",
  "application/json": "json3",
  "text/json": "json3",
};

/** The format a server says it sent, when its content type names one; "text/plain" names none. */
export function formatFromContentType(contentType: string | null | undefined): CaptionFormat | null {
  const essence = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return contentTypes[essence] ?? null;
}

/** The format a text looks like: a WEBVTT header, a JSON document, else SubRip. */
export function sniffFormat(text: string): CaptionFormat {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (start.startsWith("WEBVTT")) return "vtt";
  if (start.startsWith("{")) return "json3";
  return "srt";
}

/** The cues of a caption text in the given format (throws CaptionFormatError for a broken json3). */
export function parseCaptions(text: string, format: CaptionFormat): CaptionCue[] {
  return format === "json3" ? parseJson3(text) : parseTimedText(text);
}

/** The end of the last cue, in seconds: the duration when nothing better is known. */
export function cuesDurationSeconds(cues: readonly CaptionCue[]): number {
  let endMs = 0;
  for (const cue of cues) endMs = Math.max(endMs, cue.endMs);
  return endMs / 1000;
}
