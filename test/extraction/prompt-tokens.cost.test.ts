// Cost: what a prompt costs in o200k tokens per token of transcript, on real-shaped caption files, against the
// format before: within 1.12 (issue 37) on a 50-minute automatic track; on a 12-minute manual one, sent in one
// request, the schema alone is 7% of the words, so 1.12 holds with the schema counted as OpenAI was seen to
// bill it and 1.14 with its raw JSON.
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
    ["a 50-minute automatic track", automaticTrack(50 * 60), 1.12],
    ["a 12-minute manual track", manualTrack(12 * 60), 1.14],
  ])("on %s is within its limit, and below the one-cue-a-line format's", (_name, captions, limit) => {
    const now = measurePromptCost(captions, defaultChunking);
    const previous = measurePromptCost(captions, previousChunking, before);
    expect(now.transcriptTokens).toBe(previous.transcriptTokens);
    expect(now.promptPerTranscriptToken).toBeLessThanOrEqual(limit);
    expect(now.billedPromptPerTranscriptToken).toBeLessThanOrEqual(1.12);
    expect(now.promptPerTranscriptToken).toBeLessThan(previous.promptPerTranscriptToken);
    // Lines of a few seconds to half a minute, never more.
    expect(now.longestLineSeconds).toBeLessThanOrEqual(30);
    expect(now.lines).toBeLessThan(previous.lines / 2);
  });

  it("keeps a 50-minute talk in more than one chunk, so that it is still asked in parallel", () => {
    expect(measurePromptCost(automaticTrack(50 * 60), defaultChunking).chunks).toBeGreaterThan(1);
  });
});
