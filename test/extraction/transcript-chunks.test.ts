// Chunking a transcript by estimated tokens: sizes, overlaps, long cues, and the token estimate itself.
import { describe, expect, it } from "vitest";
import type { CaptionCue } from "../../src/domain/transcript.js";
import { estimateTokens, splitByTokens } from "../../src/extraction/token-estimate.js";
import {
  chunkTranscript,
  lineTokens as cueTokens,
  type TranscriptChunk,
} from "../../src/extraction/transcript-chunks.js";

/** Each cue a numbered line of its own, so that these tests see the chunking alone (`transcript-lines.ts` groups). */
const oneCueALine = { maxLineSeconds: 0, minLineSeconds: 0 };

/** `count` cues of about 10 estimated tokens each (24 characters + the time stamp), a second apart. */
function cues(count: number): CaptionCue[] {
  return Array.from({ length: count }, (_, i) => ({
    startMs: i * 1000,
    endMs: i * 1000 + 900,
    text: `line ${String(i).padStart(3, "0")} of the transcript.`.slice(0, 24),
  }));
}

function texts(chunk: TranscriptChunk): string[] {
  return chunk.cues.map((cue) => cue.text);
}

describe("the token estimate", () => {
  it("counts Latin text at four characters a token", () => {
    expect(estimateTokens("abcd".repeat(100))).toBe(100);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("")).toBe(0);
  });

  it("counts CJK text at a token a character, so such chunks are not four times too big", () => {
    expect(estimateTokens("価格は三千円です".repeat(10))).toBe(80);
  });

  it("cuts a text between words, and inside a word only when the word alone is over the budget", () => {
    expect(splitByTokens("aaaa bbbb cccc dddd", 3)).toEqual(["aaaa bbbb", "cccc dddd"]);
    const pieces = splitByTokens("価格は三千円です", 3);
    expect(pieces).toEqual(["価格は", "三千円", "です"]);
  });
});

describe("chunking a transcript", () => {
  it("gives no chunk for an empty transcript, nor for one of blank cues", () => {
    expect(chunkTranscript([])).toEqual([]);
    expect(chunkTranscript([{ startMs: 0, endMs: 10, text: "  \n " }])).toEqual([]);
  });

  it("keeps a short transcript in one chunk, with its time range, and its cues' text on one line", () => {
    const input = [
      { startMs: 1000, endMs: 2000, text: "first\nline" },
      { startMs: 2000, endMs: 4500, text: "second" },
    ];
    const chunks = chunkTranscript(input);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ index: 0, startMs: 1000, endMs: 4500 });
    // By default, a few seconds of cues make one numbered line.
    expect(texts(chunks[0] as TranscriptChunk)).toEqual(["first line second"]);
    const separate = chunkTranscript(input, { chunkTokens: 3000, overlapTokens: 0, ...oneCueALine });
    expect(texts(separate[0] as TranscriptChunk)).toEqual(["first line", "second"]);
  });

  it("keeps every chunk within the budget and every cue, in order, with whole cues of overlap", () => {
    const input = cues(50);
    const options = { chunkTokens: 45, overlapTokens: 12, ...oneCueALine };
    const chunks = chunkTranscript(input, options);
    expect(chunks.length).toBeGreaterThan(5);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.index).toBe(i);
      expect(chunk.tokens).toBe(chunk.cues.reduce((sum, cue) => sum + cueTokens(cue), 0));
      expect(chunk.tokens).toBeLessThanOrEqual(options.chunkTokens);
      expect(chunk.startMs).toBe(chunk.cues[0]?.startMs);
    }
    // Each chunk after the first starts with the last cue of the one before (one cue of ~10 fits in 12).
    for (let i = 1; i < chunks.length; i++) {
      const previous = texts(chunks[i - 1] as TranscriptChunk);
      expect(texts(chunks[i] as TranscriptChunk)[0]).toBe(previous.at(-1));
    }
    // Without the carried cues, the chunks are the transcript exactly.
    const fresh = chunks.flatMap((chunk, i) => (i === 0 ? texts(chunk) : texts(chunk).slice(1)));
    expect(fresh).toEqual(input.map((cue) => cue.text));
  });

  it("keeps the caption times of every cue in every chunk, a carried cue's too", () => {
    const input = cues(40);
    const chunks = chunkTranscript(input, { chunkTokens: 45, overlapTokens: 12, ...oneCueALine });
    expect(chunks.length).toBeGreaterThan(3);
    const byText = new Map(input.map((cue) => [cue.text, cue]));
    for (const chunk of chunks) {
      for (const cue of chunk.cues) {
        expect(cue).toEqual(byText.get(cue.text));
      }
      expect(chunk.startMs).toBe(chunk.cues[0]?.startMs);
      expect(chunk.endMs).toBe(chunk.cues.at(-1)?.endMs);
    }
  });

  it("shares no cue between chunks when the overlap is 0", () => {
    const input = cues(30);
    const chunks = chunkTranscript(input, { chunkTokens: 40, overlapTokens: 0, ...oneCueALine });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.flatMap(texts)).toEqual(input.map((cue) => cue.text));
  });

  it("cuts a cue longer than a chunk into pieces, losing no text, with times inside the cue's", () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    const long = { startMs: 10_000, endMs: 70_000, text: words.join(" ") };
    const chunks = chunkTranscript([{ startMs: 0, endMs: 1000, text: "intro" }, long], {
      chunkTokens: 100,
      overlapTokens: 0,
      ...oneCueALine,
    });
    expect(chunks.length).toBeGreaterThan(5);
    const pieces = chunks.flatMap((chunk) => chunk.cues).slice(1);
    expect(pieces.map((piece) => piece.text).join(" ")).toBe(long.text);
    let previousStart = long.startMs;
    for (const piece of pieces) {
      expect(piece.startMs).toBeGreaterThanOrEqual(previousStart);
      expect(piece.endMs).toBeLessThanOrEqual(long.endMs);
      expect(cueTokens(piece)).toBeLessThanOrEqual(100);
      previousStart = piece.startMs;
    }
    expect(pieces.at(-1)?.endMs).toBe(long.endMs);
  });

  it("cuts a long cue of unspaced CJK text too, into pieces of at most a quarter of a chunk", () => {
    const text = "今日は新しい製品を三つ紹介します".repeat(20);
    const chunks = chunkTranscript([{ startMs: 0, endMs: 60_000, text }], {
      chunkTokens: 50,
      overlapTokens: 10,
      ...oneCueALine,
    });
    expect(chunks.length).toBeGreaterThan(5);
    // Each chunk after the first starts with the previous one's last piece, the overlap.
    const fresh = chunks.flatMap((chunk, i) => (i === 0 ? texts(chunk) : texts(chunk).slice(1)));
    expect(fresh.join("")).toBe(text);
    for (const piece of chunks.flatMap(texts)) expect(estimateTokens(piece)).toBeLessThanOrEqual(12);
  });

  it("refuses a chunk size or overlap that could not make progress", () => {
    expect(() => chunkTranscript(cues(3), { chunkTokens: 100, overlapTokens: 100 })).toThrow(/overlapTokens/);
    expect(() => chunkTranscript(cues(3), { chunkTokens: 4, overlapTokens: 0 })).toThrow(/chunkTokens/);
    expect(() => chunkTranscript(cues(3), { chunkTokens: 100, overlapTokens: -1 })).toThrow(/overlapTokens/);
    expect(() =>
      chunkTranscript(cues(3), { chunkTokens: 100, overlapTokens: 0, maxLineSeconds: -1 }),
    ).toThrow(/maxLineSeconds/);
  });
});
