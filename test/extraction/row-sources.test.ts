// A row's source: the lines the model named, checked against its chunk and read back as caption times.
import { describe, expect, it } from "vitest";
import { chunkRows } from "../../src/extraction/chunk-rows.js";
import { columnSpecs } from "../../src/domain/schema-definition.js";
import { narrowedRange, sourceOfLines } from "../../src/extraction/row-sources.js";
import type { TranscriptChunk } from "../../src/extraction/transcript-chunks.js";

/** Lines 1 to 4 of a chunk, from 60.5 s to 80.25 s into a video of 100 s. */
const chunk: TranscriptChunk = {
  index: 2,
  startMs: 60_500,
  endMs: 80_250,
  tokens: 40,
  cues: [
    { startMs: 60_500, endMs: 65_000, text: "one" },
    { startMs: 65_000, endMs: 70_123, text: "two" },
    { startMs: 70_123, endMs: 75_000, text: "three" },
    { startMs: 75_000, endMs: 80_250, text: "four" },
  ],
};
const duration = 100;

describe("the source of a row", () => {
  it("runs from the start of its first line's cue to the end of its last's, in seconds to the millisecond", () => {
    expect(sourceOfLines(chunk, 2, 3, duration)).toMatchObject({ startSeconds: 65, endSeconds: 75 });
    expect(sourceOfLines(chunk, 2, 2, duration)).toMatchObject({ startSeconds: 65, endSeconds: 70.123 });
    expect(sourceOfLines(chunk, 1, 4, duration)).toMatchObject({ startSeconds: 60.5, endSeconds: 80.25 });
  });

  it("clamps line numbers outside the chunk to its first and last lines", () => {
    expect(sourceOfLines(chunk, 0, 99, duration)).toMatchObject({ startSeconds: 60.5, endSeconds: 80.25 });
    expect(sourceOfLines(chunk, -3, 2, duration)).toMatchObject({ startSeconds: 60.5, endSeconds: 70.123 });
    expect(sourceOfLines(chunk, 4, 1000, duration)).toMatchObject({ startSeconds: 75, endSeconds: 80.25 });
    expect(sourceOfLines(chunk, 50, 60, duration)).toMatchObject({ startSeconds: 75, endSeconds: 80.25 });
  });

  it("takes a missing or non-integer number as the chunk's edge, so a row without lines gets the whole chunk", () => {
    const whole = { startSeconds: 60.5, endSeconds: 80.25 };
    expect(sourceOfLines(chunk, undefined, undefined, duration)).toEqual({
      ...whole,
      quote: "one two three four",
    });
    expect(sourceOfLines(chunk, null, "3", duration)).toMatchObject(whole);
    expect(sourceOfLines(chunk, 2.5, Number.NaN, duration)).toMatchObject(whole);
    expect(sourceOfLines(chunk, 3, null, duration)).toMatchObject({
      startSeconds: 70.123,
      endSeconds: 80.25,
    });
    expect(sourceOfLines(chunk, undefined, 1, duration)).toMatchObject({
      startSeconds: 60.5,
      endSeconds: 65,
    });
  });

  it("quotes the text of exactly the lines it spans, as the model saw them", () => {
    expect(sourceOfLines(chunk, 2, 3, duration).quote).toBe("two three");
    expect(sourceOfLines(chunk, 4, 4, duration).quote).toBe("four");
    expect(sourceOfLines(chunk, 3, 2, duration).quote).toBe("two three");
  });

  it("turns a reversed span round", () => {
    expect(sourceOfLines(chunk, 3, 2, duration)).toMatchObject({ startSeconds: 65, endSeconds: 75 });
  });

  it("never runs past the video's end, which a caption track may outlast", () => {
    expect(sourceOfLines(chunk, 4, 4, 78)).toMatchObject({ startSeconds: 75, endSeconds: 78 });
    expect(sourceOfLines(chunk, 1, 4, 50)).toMatchObject({ startSeconds: 50, endSeconds: 50 });
  });

  it("stays inside the chunk when a cue of it ends past the chunk's recorded end", () => {
    const ragged: TranscriptChunk = {
      ...chunk,
      endMs: 70_000,
      cues: [
        { startMs: 60_500, endMs: 65_000, text: "one" },
        { startMs: 65_000, endMs: 90_000, text: "two" },
      ],
    };
    expect(sourceOfLines(ragged, 2, 2, duration)).toMatchObject({ startSeconds: 65, endSeconds: 70 });
  });
});

describe("a chunk's rows", () => {
  const specs = columnSpecs({
    template: { product: "The name", price: { description: "Price", type: "integer" } },
  });

  it("gives each row its own source and drops a row that fitting empties together with its span", () => {
    const rows = chunkRows(
      [
        { row: { product: "kettle", price: 30 }, firstLine: 1, lastLine: 1 },
        { row: { product: null, price: "free" }, firstLine: 2, lastLine: 2 },
        { row: { product: "cup", price: "4" }, firstLine: 4, lastLine: 9 },
        { row: { product: "Two", price: 3 }, firstLine: 2, lastLine: 3 },
      ],
      chunk,
      specs,
      duration,
    );
    expect(rows).toEqual({
      rows: [
        { product: "kettle", price: 30 },
        { product: "cup", price: 4 },
        { product: "Two", price: 3 },
      ],
      // Each source quotes its lines and names the values they do not hold.
      sources: [
        { startSeconds: 60.5, endSeconds: 65, quote: "one", unverified: ["product", "price"] },
        { startSeconds: 75, endSeconds: 80.25, quote: "four", unverified: ["product"] },
        { startSeconds: 65, endSeconds: 75, quote: "two three", unverified: [] },
      ],
      nulledValues: 1,
    });
  });
});

describe("a span wider than a moment", () => {
  /** Ten lines of 30 s each: line i says `word<i>`. */
  const long: TranscriptChunk = {
    index: 0,
    startMs: 0,
    endMs: 300_000,
    tokens: 100,
    cues: Array.from({ length: 10 }, (_, i) => ({
      startMs: i * 30_000,
      endMs: (i + 1) * 30_000,
      text: `word${i + 1}`,
    })),
  };
  const holding =
    (...words: string[]) =>
    (text: string) =>
      words.filter((word) => text.split(" ").includes(word)).length;

  it("is kept when it spans at most 90 s", () => {
    expect(narrowedRange(long, { from: 2, to: 4 }, holding("word9"))).toEqual({ from: 2, to: 4 });
  });

  it("is narrowed to the line holding the row's values, or two adjacent lines when a phrase runs over", () => {
    expect(narrowedRange(long, { from: 1, to: 10 }, holding("word7"))).toEqual({ from: 7, to: 7 });
    expect(narrowedRange(long, { from: 1, to: 10 }, holding("word7", "word8"))).toEqual({ from: 7, to: 8 });
    // Nothing held: the first line the model named.
    expect(narrowedRange(long, { from: 3, to: 9 }, holding("nowhere"))).toEqual({ from: 3, to: 3 });
  });
});
