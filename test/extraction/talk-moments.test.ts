// Links to the second: on real-shaped automatic and manual tracks read by a model that names exact lines,
// every row's source starts within 5 seconds before the moment its item is said, never after it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCaptions } from "../../src/captions/caption-formats.js";
import { Semaphore } from "../../src/concurrency/semaphore.js";
import type { SchemaDefinition } from "../../src/domain/schema-definition.js";
import { canonicalWords } from "../../src/extraction/canonical-words.js";
import type { Extraction } from "../../src/extraction/extractor.js";
import { createExtractor } from "../../src/extraction/openai-extractor.js";
import { defaultChunking, transcriptLines } from "../../src/extraction/transcript-chunks.js";
import { exactReader } from "../support/exact-reader.js";
import { type FakeModel, startFakeModel } from "../support/fake-model.js";
import { automaticTrack, manualTrack, type TalkCaptions } from "../support/talk-captions.js";

/** `the kettle I'm using here costs one hundred forty nine dollars` (or `$149.`), over one line or two. */
const mentionPattern =
  /the\s+((?:[a-z']+\s+)?[a-z']+)\s+I'm\s+using\s+here\s+costs\s+(\$\d+|[a-z\s]+?\s+dollars)/gi;

const schema: SchemaDefinition = {
  template: { product: "The product", price: { description: "Its price", type: "number" } },
};

async function extract(model: FakeModel, talk: TalkCaptions): Promise<Extraction> {
  const extractor = createExtractor({
    baseUrl: model.url,
    apiKey: "sk-test",
    model: "fake-model",
    modelRequests: new Semaphore(4),
  });
  return extractor.extractRows(
    { cues: parseCaptions(talk.text, talk.format), durationSeconds: talk.durationSeconds, language: "en" },
    schema,
  );
}

describe.each([
  ["a 60-minute automatic track", () => automaticTrack(60 * 60, 7)],
  ["a 30-minute manual track", () => manualTrack(30 * 60, 5)],
])("the moments of %s", (_name, makeTalk) => {
  let model: FakeModel;
  let talk: TalkCaptions;
  let extraction: Extraction;
  beforeAll(async () => {
    model = await startFakeModel({
      respond: exactReader(mentionPattern, (match) => ({
        product: (match[1] as string).replace(/\s+/g, " ").toLowerCase(),
        price: Number(canonicalWords(match[2] as string)[0]),
      })),
    });
    talk = makeTalk();
    extraction = await extract(model, talk);
  });
  afterAll(async () => {
    await model?.close();
  });

  it("gives every item said a row whose source starts within 5 s before the moment it is said", () => {
    const said = new Set(talk.mentions.map((m) => `${m.item} ${m.price}`));
    expect(extraction.rows.length).toBe(said.size);
    expect(said.size).toBeGreaterThan(20);
    const late: string[] = [];
    extraction.rows.forEach((row, i) => {
      const source = extraction.sources[i];
      if (source === undefined) throw new Error(`row ${i} has no source`);
      expect(source.unverified).toEqual([]);
      const moments = talk.mentions
        .filter((m) => m.item === row.product && m.price === row.price)
        .map((m) => m.atMs / 1000);
      const opensAtOne = moments.some(
        (moment) => source.startSeconds <= moment && moment - source.startSeconds <= 5,
      );
      if (!opensAtOne)
        late.push(`${JSON.stringify(row)} said at ${moments} s, starts ${source.startSeconds} s`);
      // The span still holds the whole mention, up to the end of its lines.
      expect(source.endSeconds).toBeGreaterThan(Math.min(...moments));
    });
    expect(late).toEqual([]);
  });

  it("reads lines whose starts alone would open many of these links more than 5 s early", () => {
    const lines = transcriptLines(parseCaptions(talk.text, talk.format), defaultChunking);
    const early = talk.mentions.filter((m) => {
      const line = lines.find((candidate) => candidate.startMs <= m.atMs && m.atMs < candidate.endMs);
      return line !== undefined && m.atMs - line.startMs > 5000;
    });
    expect(early.length).toBeGreaterThan(talk.mentions.length / 3);
  });
});
