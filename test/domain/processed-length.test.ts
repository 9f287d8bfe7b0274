// What a video is charged for: the span of its captions' words or the audio sent, never past the page's claim.
import { describe, expect, it } from "vitest";
import {
  billedSeconds,
  clampToPiece,
  claimedSeconds,
  sentSeconds,
  wordsSpanSeconds,
} from "../../src/domain/processed-length.js";

const cue = (startS: number, endS: number, text: string) => ({
  startMs: startS * 1000,
  endMs: endS * 1000,
  text,
});

describe("wordsSpanSeconds", () => {
  it("runs from the first word's start to the last word's end", () => {
    expect(wordsSpanSeconds([cue(2, 5, "Hello"), cue(5, 9, "there"), cue(40, 45.5, "bye")])).toBe(43.5);
  });

  it("counts nothing for cues without words: an empty cue a page placed at 10:00:00 adds no time", () => {
    expect(wordsSpanSeconds([cue(0, 3, "Three seconds of words."), cue(36_000, 36_001, "  \n ")])).toBe(3);
  });

  it("counts a lone cue at 10:00:00 as its own length, not as ten hours", () => {
    expect(wordsSpanSeconds([cue(36_000, 36_004, "Late words.")])).toBe(4);
  });

  it("is 0 without words, and ignores cues whose times are not numbers", () => {
    expect(wordsSpanSeconds([])).toBe(0);
    expect(wordsSpanSeconds([cue(1, 2, ""), { startMs: Number.NaN, endMs: 9e9, text: "x" }])).toBe(0);
  });

  it("reads a cue whose end comes before its start as the instant it names", () => {
    expect(wordsSpanSeconds([cue(10, 4, "backwards"), cue(12, 13, "ok")])).toBe(9);
  });
});

describe("billedSeconds", () => {
  it("is the processed length, cut to what the page claims", () => {
    expect(billedSeconds(3, 36_000)).toBe(3);
    expect(billedSeconds(600, 90)).toBe(90);
    expect(billedSeconds(42, undefined)).toBe(42);
  });

  it("takes only a positive, finite claim as a claim, and never answers below 0", () => {
    for (const claim of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, null, undefined]) {
      expect(billedSeconds(30, claim), String(claim)).toBe(30);
      expect(claimedSeconds(claim)).toBeUndefined();
    }
    expect(billedSeconds(-3, 10)).toBe(0);
    expect(billedSeconds(Number.NaN, 10)).toBe(0);
  });
});

describe("sentSeconds", () => {
  it("adds the pieces' own lengths, not the last piece's end offset with the encoder's delay", () => {
    // ffmpeg's list for a 60.0 s MP3 cut in 20 s pieces: the last piece ends at 60.029 s.
    const pieces = [20.009796, 20.009796, 19.983673, 0.026123];
    expect(sentSeconds(pieces, 60.004)).toBeCloseTo(60.004, 3);
    expect(Math.round(sentSeconds(pieces, 60.004))).toBe(60);
  });

  it("is never more than the media holds, and counts unknown or negative pieces as nothing", () => {
    expect(sentSeconds([3000, 3000], 3)).toBe(3);
    expect(sentSeconds([undefined, -4, Number.NaN, 2.5], 100)).toBe(2.5);
    expect(sentSeconds([10], -1)).toBe(0);
  });
});

describe("clampToPiece", () => {
  it("keeps a segment inside its piece: an end at 10 hours in a 20 s piece ends at 20 s", () => {
    expect(clampToPiece(5, 36_000, 20)).toEqual({ startSeconds: 5, endSeconds: 20 });
    expect(clampToPiece(-3, 4, 20)).toEqual({ startSeconds: 0, endSeconds: 4 });
    expect(clampToPiece(30, 40, 20)).toEqual({ startSeconds: 20, endSeconds: 20 });
    expect(clampToPiece(8, 6, 20)).toEqual({ startSeconds: 8, endSeconds: 8 });
  });

  it("leaves a segment as it is when the piece's length is unknown", () => {
    expect(clampToPiece(5, 90, undefined)).toEqual({ startSeconds: 5, endSeconds: 90 });
  });
});
