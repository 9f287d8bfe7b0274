// A row's moment: its source starts where the words it was drawn from begin, placed by the times of the
// cues inside its lines, never after them; its span still ends with its lines.
import { describe, expect, it } from "vitest";
import { chunkRows } from "../../src/extraction/chunk-rows.js";
import type { Row } from "../../src/extraction/extractor.js";
import { columnSpecs } from "../../src/domain/schema-definition.js";
import { evidenceStartToken } from "../../src/extraction/quote-matching.js";
import { tokenMomentMs } from "../../src/extraction/row-moments.js";
import type { TranscriptChunk } from "../../src/extraction/transcript-chunks.js";
import type { TranscriptLine } from "../../src/extraction/transcript-lines.js";

/** A line joining cues of four words, each cue 2 s long, from `startMs`. */
function lineOfCues(startMs: number, cueTexts: readonly string[]): TranscriptLine {
  const parts = cueTexts.map((text, i) => ({
    startMs: startMs + i * 2000,
    endMs: startMs + (i + 1) * 2000,
    text,
  }));
  return {
    startMs,
    endMs: startMs + cueTexts.length * 2000,
    text: cueTexts.join(" "),
    parts,
  };
}

/** Two lines of 20 s, from 100 s into a video of 200 s. */
const chunk: TranscriptChunk = {
  index: 0,
  startMs: 100_000,
  endMs: 140_000,
  tokens: 100,
  cues: [
    lineOfCues(100_000, [
      "so let me show",
      "you the blue kettle",
      "which is quite nice",
      "and it costs thirty",
      "dollars at most stores",
      "near me these days",
      "and the mug i",
      "bought there for two",
      "dollars is fine too",
      "so that is it",
    ]),
    lineOfCues(120_000, [
      "also here is the",
      "green toaster costs forty",
      "five dollars or so",
      "and that is all",
      "for today thank you",
      "all for watching this",
      "see you very soon",
      "on the channel again",
      "take care of yourselves",
      "and goodbye for now",
    ]),
  ],
};

const specs = columnSpecs({
  template: {
    product: "The name",
    price: { description: "Price", type: "number" },
    good: { type: "boolean", description: "Liked" },
  },
});

const sourceOf = (row: Row, firstLine: number, lastLine: number) => {
  const { sources } = chunkRows([{ row, firstLine, lastLine }], chunk, specs, 200);
  return sources[0];
};

describe("where a row's evidence begins in its lines", () => {
  it("is the first token of the shortest stretch holding every value the lines hold", () => {
    const text = chunk.cues[0]?.text as string;
    // `blue kettle` starts at token 6 ("so let me show you the blue ..."), `thirty` is token 15.
    expect(evidenceStartToken({ product: "blue kettle", price: 30 }, specs, text)).toBe(6);
    // The price alone, said as words.
    expect(evidenceStartToken({ product: null, price: 30 }, specs, text)).toBe(15);
    // A value the lines do not hold is left out; none held is no start.
    expect(evidenceStartToken({ product: "mug", price: 999 }, specs, text)).toBe(26);
    expect(evidenceStartToken({ product: "plate", price: 999 }, specs, text)).toBeUndefined();
  });

  it("is not drawn away by a value said again elsewhere", () => {
    // `dollars` is said at tokens 16 and 32, `two` (2) at 31: `two dollars` is the shortest stretch.
    const text = chunk.cues[0]?.text as string;
    expect(evidenceStartToken({ product: "dollars", price: 2 }, specs, text)).toBe(31);
  });

  it("finds a value of an unspaced script by its characters", () => {
    expect(evidenceStartToken({ product: "三千円", price: null }, specs, "こちら は 価格が三千円です")).toBe(
      2,
    );
  });
});

describe("the moment of a token", () => {
  it("is inside the cue holding it, after the words before it, less one word, never after it", () => {
    const lines = chunk.cues.slice(0, 1);
    // Tokens 4 and 5 are the first and second words of the cue at 102 s: one word's share back is its start.
    expect(tokenMomentMs(lines, 4)).toBe(102_000);
    expect(tokenMomentMs(lines, 5)).toBe(102_000);
    // Token 6 ("blue") is the third word of four: 2 s * 1/4 after the cue's start.
    expect(tokenMomentMs(lines, 6)).toBe(102_500);
    expect(tokenMomentMs(lines, 40)).toBeUndefined();
  });

  it("is the cue's start in a cue too sparse for its time to be its words' (silence, or no word times)", () => {
    // A transcript without segment times: six words over 90 s.
    const untimed = [{ startMs: 0, endMs: 90_000, text: "The blue kettle costs thirty dollars." }];
    expect(tokenMomentMs(untimed, 2)).toBe(0);
    // Six words over 6 s are speech: `kettle` is placed one word's share after the start.
    expect(tokenMomentMs([{ ...(untimed[0] as TranscriptLine), endMs: 6000 }], 2)).toBe(1000);
  });
});

describe("a row's source", () => {
  it("starts at the moment its values begin and still ends with its lines, holding the whole quote", () => {
    const source = sourceOf({ product: "green toaster", price: 45 }, 1, 2);
    // `green toaster` is the first word of the cue at 122 s.
    expect(source).toMatchObject({ startSeconds: 122, endSeconds: 140, unverified: [] });
    expect(source?.quote).toBe(`${chunk.cues[0]?.text} ${chunk.cues[1]?.text}`);
  });

  it("places a moment within its cue by the words before it", () => {
    // `mug` is the third word of the cue at 112 s: one word's share (0.5 s) after its start.
    expect(sourceOf({ product: "mug", price: 2 }, 1, 1)).toMatchObject({
      startSeconds: 112.5,
      endSeconds: 120,
    });
  });

  it("keeps the start of its first line when no value could be matched, and says so in unverified", () => {
    expect(sourceOf({ product: "plate", price: 999, good: true }, 2, 2)).toEqual({
      startSeconds: 120,
      endSeconds: 140,
      quote: chunk.cues[1]?.text,
      unverified: ["product", "price"],
    });
  });

  it("is placed in a line that is one cue by that cue's time", () => {
    const single: TranscriptChunk = {
      ...chunk,
      cues: [{ startMs: 100_000, endMs: 104_500, text: "the blue kettle costs thirty dollars" }],
    };
    const { sources } = chunkRows(
      [{ row: { product: "kettle", price: 30 }, firstLine: 1, lastLine: 1 }],
      single,
      specs,
      200,
    );
    // `kettle` is the third of six words of a 4.5-s cue: one word's share back, at 100 s + 4.5 s * 1/6.
    expect(sources[0]?.startSeconds).toBe(100.75);
  });
});
