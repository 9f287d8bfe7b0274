// Grouping cues into the prompt's numbered lines: spans of a few seconds up to half a minute.
import { describe, expect, it } from "vitest";
import type { CaptionCue } from "../../src/domain/transcript.js";
import { groupIntoLines } from "../../src/extraction/transcript-lines.js";

const words = (text: string) => text.split(" ").length;
const options = { maxLineSeconds: 30, minLineSeconds: 8 };

/** Cues of `seconds` each, back to back, from `texts`. */
function cuesOf(seconds: number, texts: readonly string[]): CaptionCue[] {
  return texts.map((text, i) => ({ startMs: i * seconds * 1000, endMs: (i + 1) * seconds * 1000, text }));
}

describe("numbered lines", () => {
  it("joins short unpunctuated cues up to the longest span, each line's times its cues'", () => {
    // An automatic track: 3-second cues, no punctuation, no pauses.
    const cues = cuesOf(
      3,
      Array.from({ length: 25 }, (_, i) => `words of cue ${i}`),
    );
    const lines = groupIntoLines(cues, options, 1000, words);
    expect(lines.map((line) => line.endMs - line.startMs)).toEqual([30_000, 30_000, 15_000]);
    expect(lines[0]).toEqual({
      startMs: 0,
      endMs: 30_000,
      text: cues
        .slice(0, 10)
        .map((cue) => cue.text)
        .join(" "),
      parts: cues.slice(0, 10),
    });
    expect(lines.map((line) => line.text).join(" ")).toBe(cues.map((cue) => cue.text).join(" "));
  });

  it("ends a line at a sentence's end once it spans the shortest span, not before", () => {
    const cues = cuesOf(3, ["One.", "Two and", "three.", "Four", "five.", "Six"]);
    const lines = groupIntoLines(cues, options, 1000, words);
    // "One." ends a sentence at 3 s, too soon; "three." at 9 s ends the line.
    expect(lines.map((line) => line.text)).toEqual(["One. Two and three.", "Four five. Six"]);
  });

  it("ends a line at a pause once it spans the shortest span", () => {
    const cues: CaptionCue[] = [
      { startMs: 0, endMs: 5000, text: "a" },
      { startMs: 5000, endMs: 9000, text: "b" },
      { startMs: 11_000, endMs: 12_000, text: "c" },
      { startMs: 12_500, endMs: 13_000, text: "d" },
    ];
    expect(groupIntoLines(cues, options, 1000, words).map((line) => line.text)).toEqual(["a b", "c d"]);
  });

  it("ends a line before its text would pass the token limit", () => {
    const cues = cuesOf(1, ["a b c", "d e f", "g h i"]);
    // 3 words + 1 for the joining space per cue: two cues are 8.
    expect(groupIntoLines(cues, options, 8, words).map((line) => line.text)).toEqual([
      "a b c d e f",
      "g h i",
    ]);
  });

  it("keeps a cue longer than the longest span as a line of its own", () => {
    const cues: CaptionCue[] = [
      { startMs: 0, endMs: 45_000, text: "a long monologue" },
      { startMs: 45_000, endMs: 46_000, text: "then" },
    ];
    expect(groupIntoLines(cues, options, 1000, words).map((line) => line.text)).toEqual([
      "a long monologue",
      "then",
    ]);
  });
});
