// A 60-minute talk read with the default chunks and lines: every row's source holds the moment its item is
// said and spans at most 90 seconds, also when the model names far more lines than the row came from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCaptions } from "../../src/captions/caption-formats.js";
import { Semaphore } from "../../src/concurrency/semaphore.js";
import type { Extraction } from "../../src/extraction/extractor.js";
import { createExtractor } from "../../src/extraction/openai-extractor.js";
import { canonicalWords } from "../../src/extraction/canonical-words.js";
import { maxSourceSeconds } from "../../src/extraction/row-sources.js";
import {
  type FakeModel,
  type FakeModelRequest,
  promptLines,
  spannedRowsReply,
  startFakeModel,
} from "../support/fake-model.js";
import { automaticTrack, type TalkCaptions } from "../support/talk-captions.js";

/** `the kettle I'm using here costs one hundred forty nine dollars` (or `$149`), across one line or two. */
const mentionPattern = /the ((?:[a-z']+ )?[a-z']+) I'm using here costs (\$\d+|.+? dollars)/g;

/** How many rows the model named sloppily, over seven lines or more (about three minutes). */
let sloppyRows = 0;

/**
 * The model: a row for every item said in the chunk, naming the line its name is on and the line its price
 * ends on. Every other row it names sloppily, three lines either side, where no other line of that window
 * names the same item (the words then still say which line it is).
 */
function readItems(request: FakeModelRequest) {
  const lines = promptLines(request);
  const text = lines.map((line) => line.text).join("\n");
  const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
  const items = [...text.replaceAll("\n", " ").matchAll(mentionPattern)].map((match, i) => {
    const product = match[1] as string;
    const price = Number(canonicalWords(match[2] as string)[0]);
    const first = lineAt(match.index);
    const last = lineAt(match.index + match[0].length);
    const window = { from: Math.max(1, first - 3), to: Math.min(lines.length, last + 3) };
    const alone = lines
      .slice(window.from - 1, window.to)
      .every((line) => line.number === first || !line.text.includes(`the ${product} I'm`));
    const sloppy = i % 2 === 1 && alone;
    if (sloppy) sloppyRows++;
    return {
      row: { product, price },
      first_line: sloppy ? window.from : first,
      last_line: sloppy ? window.to : last,
    };
  });
  return spannedRowsReply(items);
}

describe("sources of a 60-minute talk", () => {
  let model: FakeModel;
  let talk: TalkCaptions;
  let extraction: Extraction;
  beforeAll(async () => {
    model = await startFakeModel({ respond: readItems });
    talk = automaticTrack(60 * 60, 60);
    const extractor = createExtractor({
      baseUrl: model.url,
      apiKey: "sk-test",
      model: "fake-model",
      modelRequests: new Semaphore(4),
    });
    extraction = await extractor.extractRows(
      { cues: parseCaptions(talk.text, "json3"), durationSeconds: talk.durationSeconds, language: "en" },
      { template: { product: "The product", price: { description: "Its price", type: "number" } } },
    );
  });
  afterAll(async () => {
    await model?.close();
  });

  it("reads the talk in parallel chunks of default size", () => {
    expect(extraction.chunkCount).toBeGreaterThan(1);
    expect(model.requestCount).toBe(extraction.chunkCount);
  });

  it("gives every row a source that holds the moment its item is said and spans at most 90 s", () => {
    expect(extraction.rows.length).toBeGreaterThanOrEqual(
      new Set(talk.mentions.map((m) => `${m.item} ${m.price}`)).size,
    );
    extraction.rows.forEach((row, i) => {
      const source = extraction.sources[i];
      if (source === undefined) throw new Error(`row ${i} has no source`);
      expect(source.endSeconds - source.startSeconds).toBeLessThanOrEqual(maxSourceSeconds);
      const said = talk.mentions.filter((m) => m.item === row.product && m.price === row.price);
      expect(said.length, JSON.stringify(row)).toBeGreaterThan(0);
      const held = said.some(
        (m) => source.startSeconds <= m.atMs / 1000 && m.atMs / 1000 <= source.endSeconds,
      );
      expect(
        held,
        `${JSON.stringify(row)} at ${said.map((m) => m.atMs / 1000)} s, source ${JSON.stringify(source)}`,
      ).toBe(true);
      expect(source.unverified).toEqual([]);
    });
  });

  it("was named sloppy spans of several minutes for many rows, which the sources narrowed", () => {
    expect(sloppyRows).toBeGreaterThan(5);
  });
});
