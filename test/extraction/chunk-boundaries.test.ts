// No fact cut at a chunk boundary: with a fact said across every cue boundary, at every chunk size from
// 1,000 to 8,000 tokens and every speaking rate from 120 to 220 words a minute, a model that reads each
// chunk perfectly finds every fact exactly once: the next chunk always carries the whole last line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Semaphore } from "../../src/concurrency/semaphore.js";
import type { SchemaDefinition } from "../../src/domain/schema-definition.js";
import { createExtractor } from "../../src/extraction/openai-extractor.js";
import {
  chunkTranscript,
  defaultChunking,
  lineTokens,
  type TranscriptChunk,
} from "../../src/extraction/transcript-chunks.js";
import { exactReader } from "../support/exact-reader.js";
import { type FakeModel, startFakeModel } from "../support/fake-model.js";
import { factPattern, factTrack } from "../support/fact-track.js";

const chunkSizes = [1000, 2000, 3000, 4000, 6000, 8000];
const speakingRates = [120, 150, 180, 220];
const schema: SchemaDefinition = {
  template: { product: "The product", price: { description: "Its price", type: "number" } },
};

/** Enough minutes at `wordsPerMinute` for three chunks of `chunkTokens` (a word is about 1.4 tokens here). */
const minutesFor = (chunkTokens: number, wordsPerMinute: number) =>
  Math.ceil((3 * chunkTokens) / (wordsPerMinute * 1.4));

let model: FakeModel;
beforeAll(async () => {
  model = await startFakeModel({
    respond: exactReader(factPattern, (match) => ({ product: match[1], price: Number(match[2]) })),
  });
});
afterAll(async () => {
  await model?.close();
});

describe.each(chunkSizes)("chunks of %i tokens", (chunkTokens) => {
  it.each(speakingRates)(
    "find every fact said across a boundary once, at %i words a minute",
    async (rate) => {
      const track = factTrack(rate, minutesFor(chunkTokens, rate), chunkTokens + rate);
      const chunking = { ...defaultChunking, chunkTokens };
      const chunks = chunkTranscript(track.cues, chunking);
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      // Every chunk after the first begins with the previous chunk's last line, whatever its length.
      for (let i = 1; i < chunks.length; i++) {
        const previous = chunks[i - 1] as TranscriptChunk;
        expect((chunks[i] as TranscriptChunk).cues[0]).toBe(previous.cues.at(-1));
      }
      const extractor = createExtractor({
        baseUrl: model.url,
        apiKey: "sk-test",
        model: "fake-model",
        modelRequests: new Semaphore(4),
        chunking,
      });
      const extraction = await extractor.extractRows(
        { cues: track.cues, durationSeconds: track.durationSeconds, language: "en" },
        schema,
      );
      expect(extraction.chunkCount).toBe(chunks.length);
      expect(extraction.rows).toEqual(track.facts.map((fact) => ({ ...fact })));
      for (const source of extraction.sources) expect(source.unverified).toEqual([]);
    },
  );
});

it("reaches lines longer than the overlap at the fast rates, which once carried nothing", () => {
  const track = factTrack(220, 20);
  const chunks = chunkTranscript(track.cues, { ...defaultChunking, chunkTokens: 1000 });
  const longLast = chunks
    .slice(0, -1)
    .filter(
      (chunk) =>
        lineTokens(chunk.cues.at(-1) as TranscriptChunk["cues"][number]) > defaultChunking.overlapTokens,
    );
  expect(longLast.length).toBeGreaterThan(0);
});
