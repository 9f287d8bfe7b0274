// Cost: what a prompt costs in o200k tokens per token of transcript, on real-shaped caption files, against the
// format before: within 1.12 (issue 37) on a 50-minute automatic track and on a 12-minute manual one, the
// schema counted as its raw JSON (the upper bound) and as OpenAI was seen to bill it.
import { describe, expect, it } from "vitest";
import { measurePromptCost, previousChunking, previousFormat } from "../../bench/prompt-cost/prompt-cost.js";
import { defaultChunking } from "../../src/extraction/transcript-chunks.js";
import { automaticTrack, manualTrack } from "../support/talk-captions.js";

describe("Cost: the prompt's tokens", () => {
  it.each([
    ["a 50-minute automatic track", automaticTrack(50 * 60)],
    ["a 12-minute manual track", manualTrack(12 * 60)],
  ])(
    "on %s is within 1.12 times the transcript, and below the one-cue-a-line format's",
    (_name, captions) => {
      const now = measurePromptCost(captions, defaultChunking);
      const previous = measurePromptCost(captions, previousChunking, previousFormat);
      expect(now.transcriptTokens).toBe(previous.transcriptTokens);
      expect(now.promptPerTranscriptToken).toBeLessThanOrEqual(1.12);
      expect(now.billedPromptPerTranscriptToken).toBeLessThanOrEqual(1.12);
      expect(now.promptPerTranscriptToken).toBeLessThan(previous.promptPerTranscriptToken);
      // Lines of a few seconds to half a minute, never more.
      expect(now.longestLineSeconds).toBeLessThanOrEqual(30);
      expect(now.lines).toBeLessThan(previous.lines / 2);
    },
  );

  it("keeps a 50-minute talk in more than one chunk, so that it is still asked in parallel", () => {
    expect(measurePromptCost(automaticTrack(50 * 60), defaultChunking).chunks).toBeGreaterThan(1);
  });
});
