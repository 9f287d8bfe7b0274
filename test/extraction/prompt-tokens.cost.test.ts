// Cost: what a prompt costs in o200k tokens per token of transcript, on real-shaped caption files: the limits of
// issue 27 (1.15 on a 50-minute automatic track, 1.25 on a 12-minute manual one), against the format before.
import { describe, expect, it } from "vitest";
import {
  measurePromptCost,
  previousChunking,
  previousSystemPrompt,
  previousUserPrompt,
} from "../../bench/prompt-cost/prompt-cost.js";
import { defaultChunking } from "../../src/extraction/transcript-chunks.js";
import { automaticTrack, manualTrack } from "../support/talk-captions.js";

const before = { systemPrompt: previousSystemPrompt, userPrompt: previousUserPrompt };

describe("Cost: the prompt's tokens", () => {
  it.each([
    ["a 50-minute automatic track", automaticTrack(50 * 60), 1.15],
    ["a 12-minute manual track", manualTrack(12 * 60), 1.25],
  ])("on %s is within its limit, and below the one-cue-a-line format's", (_name, captions, limit) => {
    const now = measurePromptCost(captions, defaultChunking);
    const previous = measurePromptCost(captions, previousChunking, before);
    expect(now.transcriptTokens).toBe(previous.transcriptTokens);
    expect(now.promptPerTranscriptToken).toBeLessThanOrEqual(limit);
    expect(now.promptPerTranscriptToken).toBeLessThan(previous.promptPerTranscriptToken);
    // Lines of a few seconds to half a minute, never more.
    expect(now.longestLineSeconds).toBeLessThanOrEqual(30);
    expect(now.lines).toBeLessThan(previous.lines / 2);
  });

  it("keeps a 50-minute talk in more than one chunk, so that it is still asked in parallel", () => {
    expect(measurePromptCost(automaticTrack(50 * 60), defaultChunking).chunks).toBeGreaterThan(1);
  });
});
