// Turning a cue's raw caption text into plain words, and a transcript's cues into one plain text.
import type { CaptionCue } from "../domain/transcript.js";

// Markup tags (<c>, <i>, </b>, <v Speaker>, <c.colorE5E5E5>) start with a letter or "/", and WebVTT
// karaoke timing tags (<00:00:01.000>) with a digit and a colon; "a < b" in plain text is neither.
const markupTag = /<\/?[A-Za-z][^<>]*>|<\d{1,2}:\d{2}(?::\d{2})?[.,]\d{1,3}>/g;
// SubRip files made from ASS carry override blocks such as {\an8} or {\i1}.
const assOverride = /\{\\[^{}]*\}/g;

const namedEntities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  lrm: "",
  rlm: "",
};

/** Decodes HTML entities in one pass, so "&amp;lt;" becomes "&lt;" and not "<". */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return namedEntities[name.toLowerCase()] ?? whole;
  });
}

// A line that only names a sound ("[Music]", "[Applause]", "(laughs)", "♪ ♪"): nothing anyone said.
const soundLabel = /^(?:\[[^\][]{1,40}\]|\([^()]{1,40}\)|[♪♫♬\s]+)$/u;

/**
 * A cue's text without markup, entities or sound labels: its lines that carry words, each trimmed and with
 * single spaces.
 */
export function cleanCueText(raw: string): string {
  const text = decodeEntities(raw.replace(markupTag, "").replace(assOverride, ""));
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "" && !soundLabel.test(line))
    .join("\n");
}

/** The words of a transcript as one plain text, cue after cue, for the language model. */
export function transcriptText(cues: readonly CaptionCue[]): string {
  return cues
    .map((cue) => cue.text.replace(/\s+/g, " ").trim())
    .filter((text) => text !== "")
    .join(" ");
}
