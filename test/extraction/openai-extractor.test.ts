// The extractor against a fake OpenAI-compatible server: rows out, retries, bounded concurrency, abort.
import { afterEach, describe, expect, it } from "vitest";
import type { CaptionCue, Transcript } from "../../src/domain/transcript.js";
import { Semaphore } from "../../src/concurrency/semaphore.js";
import type { SchemaDefinition } from "../../src/domain/schema-definition.js";
import { ExtractionError } from "../../src/extraction/extractor.js";
import { createExtractor, type ExtractorConfig } from "../../src/extraction/openai-extractor.js";
import { chunkTranscript } from "../../src/extraction/transcript-chunks.js";
import {
  completionReply,
  errorReply,
  type FakeModel,
  type FakeModelRequest,
  messageOf,
  promptLines,
  rowsReply,
  spannedRowsReply,
  startFakeModel,
} from "../support/fake-model.js";

const products = ["apple", "pear", "plum", "fig", "kiwi", "lime", "date", "melon", "grape", "mango"];

/** One cue a product: "apple costs 1 dollars", a few seconds apart. */
function priceList(names: readonly string[] = products): Transcript {
  const cues: CaptionCue[] = names.map((name, i) => ({
    startMs: i * 5000,
    endMs: i * 5000 + 4000,
    text: `${name} costs ${i + 1} dollars`,
  }));
  return { cues, durationSeconds: names.length * 5, language: "en" };
}

/**
 * A model that reads the price list back: one row a line of the chunk it is given, with an extra column,
 * naming that line as the row's span.
 */
function readPrices(request: FakeModelRequest) {
  const items = promptLines(request).flatMap((line) => {
    const match = /^(\w+) costs (\d+) dollars$/.exec(line.text);
    if (!match) return [];
    const row = { product: match[1], price: Number(match[2]), unasked: "dropped" };
    return [{ row, first_line: line.number, last_line: line.number }];
  });
  return spannedRowsReply(items);
}

const schema: SchemaDefinition = { columns: ["product", "price", "in_stock"] };
/** About two cues a chunk, each cue its own numbered line. */
const smallChunks = { chunkTokens: 30, overlapTokens: 14, maxLineSeconds: 0 };
const quickRetry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };

let fake: FakeModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function extractorFor(model: FakeModel, overrides: Partial<ExtractorConfig> = {}) {
  return createExtractor({
    baseUrl: model.url,
    apiKey: "sk-test",
    model: "fake-model",
    modelRequests: new Semaphore(4),
    chunking: smallChunks,
    retry: quickRetry,
    ...overrides,
  });
}

/** Waits, at most `ms`, for `condition`. */
async function eventually(condition: () => boolean, ms = 5000): Promise<void> {
  for (let waited = 0; !condition() && waited < ms; waited += 10) await new Promise((r) => setTimeout(r, 10));
}

describe("extracting rows from a model", () => {
  it("fits a typed column's values and counts the ones it had to null", async () => {
    // Answers the price as text: "1" converts, "ten" (for the last product) cannot.
    fake = await startFakeModel({
      respond: (request) =>
        rowsReply(
          [...messageOf(request, "user").matchAll(/(\w+) costs (\d+) dollars/g)].map((match) => ({
            product: match[1],
            price: match[2] === "3" ? "three" : match[2],
          })),
        ),
    });
    const typed: SchemaDefinition = {
      template: { product: "The product", price: { description: "The price", type: "integer" } },
    };
    const extraction = await extractorFor(fake, { chunking: undefined }).extractRows(
      priceList(["apple", "pear", "plum"]),
      typed,
    );
    expect(extraction.rows).toEqual([
      { product: "apple", price: 1 },
      { product: "pear", price: 2 },
      { product: "plum", price: null },
    ]);
    expect(extraction.nulledValues).toBe(1);
  });

  it("asks once a chunk and gives every row once, with exactly the schema's columns", async () => {
    fake = await startFakeModel({ respond: readPrices });
    const transcript = priceList();
    const extraction = await extractorFor(fake).extractRows(transcript, schema);

    const chunkCount = chunkTranscript(transcript.cues, smallChunks).length;
    expect(chunkCount).toBeGreaterThan(2);
    expect(extraction.chunkCount).toBe(chunkCount);
    expect(fake.requestCount).toBe(chunkCount);
    expect(extraction.rows).toEqual(
      products.map((product, i) => ({ product, price: i + 1, in_stock: null })),
    );
    for (const row of extraction.rows) expect(Object.keys(row)).toEqual(["product", "price", "in_stock"]);
    // The overlaps made the model name some products twice; the merge kept one of each.
    const named = fake.requests.reduce(
      (sum, r) => sum + (messageOf(r, "user").match(/costs/g)?.length ?? 0),
      0,
    );
    expect(named).toBeGreaterThan(products.length);
  });

  it("gives each row the caption times of the lines the model named, and merged rows one source", async () => {
    fake = await startFakeModel({ respond: readPrices });
    const transcript = priceList();
    const extraction = await extractorFor(fake).extractRows(transcript, schema);
    // Product i is said on its own cue, from 5i to 5i + 4 seconds; the overlaps named some twice.
    // Each quotes its own cue and holds its values.
    expect(extraction.sources).toEqual(
      products.map((name, i) => ({
        startSeconds: i * 5,
        endSeconds: i * 5 + 4,
        quote: `${name} costs ${i + 1} dollars`,
        unverified: [],
      })),
    );
  });

  it("clamps a span outside the chunk to the chunk, and gives a row without a span the whole chunk", async () => {
    fake = await startFakeModel({
      respond: (request) => {
        const lines = promptLines(request);
        const first = lines[0]?.text ?? "";
        return spannedRowsReply([
          { row: { product: `before ${first}` }, first_line: -4, last_line: 1 },
          { row: { product: `past ${first}` }, first_line: 2, last_line: lines.length + 50 },
          { row: { product: `unnamed ${first}` }, first_line: null, last_line: "last" },
        ]);
      },
    });
    const transcript = priceList();
    const chunks = chunkTranscript(transcript.cues, smallChunks);
    const extraction = await extractorFor(fake).extractRows(transcript, schema);
    expect(extraction.rows).toHaveLength(chunks.length * 3);
    for (const [i, chunk] of chunks.entries()) {
      const seconds = (ms: number | undefined) => (ms ?? Number.NaN) / 1000;
      const whole = { startSeconds: chunk.startMs / 1000, endSeconds: chunk.endMs / 1000 };
      expect(extraction.sources.slice(i * 3, i * 3 + 3)).toMatchObject([
        { startSeconds: whole.startSeconds, endSeconds: seconds(chunk.cues[0]?.endMs) },
        { startSeconds: seconds(chunk.cues[1]?.startMs), endSeconds: whole.endSeconds },
        whole,
      ]);
    }
  });

  it("gives the whole chunk as the source of bare rows, from a server that ignores structured output", async () => {
    fake = await startFakeModel({ respond: () => rowsReply([{ product: "apple", price: 1 }]) });
    const extraction = await extractorFor(fake, { chunking: undefined }).extractRows(
      priceList(["apple", "pear"]),
      schema,
    );
    expect(extraction.rows).toEqual([{ product: "apple", price: 1, in_stock: null }]);
    expect(extraction.sources).toEqual([
      { startSeconds: 0, endSeconds: 9, quote: "apple costs 1 dollars pear costs 2 dollars", unverified: [] },
    ]);
  });

  it("adds up the tokens the model reported in `usage` over the chunks", async () => {
    fake = await startFakeModel({ respond: readPrices });
    const extraction = await extractorFor(fake).extractRows(priceList(), schema);
    // The fake model reports 1 prompt and 1 completion token per answer.
    expect(extraction.modelUsage).toEqual({
      promptTokens: extraction.chunkCount,
      completionTokens: extraction.chunkCount,
    });
  });

  it("asks nothing for an empty transcript", async () => {
    fake = await startFakeModel({ respond: readPrices });
    const extraction = await extractorFor(fake).extractRows({ cues: [], durationSeconds: 0 }, schema);
    expect(extraction).toEqual({
      rows: [],
      sources: [],
      chunkCount: 0,
      nulledValues: 0,
      modelUsage: { promptTokens: 0, completionTokens: 0 },
    });
    expect(fake.requestCount).toBe(0);
  });

  it("sends the model, the key, strict structured output and the template's descriptions", async () => {
    fake = await startFakeModel({ respond: readPrices });
    const template = { product: "The fruit's name, lower case", price: "Price in US dollars" };
    await extractorFor(fake, { chunking: undefined }).extractRows(priceList(["apple"]), { template });

    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.body.model).toBe("fake-model");
    const format = request?.body.response_format;
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.strict).toBe(true);
    const items = format.json_schema.schema.properties.rows.items;
    expect(items.required).toEqual(["product", "price", "first_line", "last_line"]);
    expect(items.additionalProperties).toBe(false);
    const system = messageOf(request as FakeModelRequest, "system");
    expect(system).toContain(template.product);
    expect(system).toContain(template.price);
    expect(messageOf(request as FakeModelRequest, "user")).toContain("apple costs 1 dollars");
  });

  it("sends a placeholder key to a server given by base URL alone", async () => {
    fake = await startFakeModel({ respond: readPrices });
    await extractorFor(fake, { apiKey: undefined }).extractRows(priceList(["apple"]), schema);
    expect(fake.requests[0]?.headers.authorization).toMatch(/^Bearer \S+$/);
  });

  it("refuses to be built with neither a key nor a base URL", () => {
    expect(() => createExtractor({ modelRequests: new Semaphore(1) })).toThrow(/VIDROWS_LLM_API_KEY/);
  });
});

describe("retrying a model", () => {
  const once = (fail: () => ReturnType<typeof rowsReply>) => (request: FakeModelRequest) =>
    request.number === 1 ? fail() : readPrices(request);

  it.each([
    ["a 500", () => errorReply(500)],
    ["a 503", () => errorReply(503)],
    ["a 429", () => errorReply(429, "slow down", { "retry-after-ms": "1" })],
    ["garbage that is not JSON", () => completionReply("Sure! apple, 1 dollar")],
    ["JSON of the wrong shape", () => completionReply('{"items": []}')],
    ["a body that is not JSON at all", () => ({ status: 200, raw: "<html>oops" })],
    ["a refusal", () => completionReply(null, { refusal: "no" })],
    [
      "an answer cut off at the length limit",
      () => completionReply('{"rows": [', { finishReason: "length" }),
    ],
  ])("asks again after %s", async (_, fail) => {
    fake = await startFakeModel({ respond: once(fail) });
    const extraction = await extractorFor(fake).extractRows(priceList(["apple"]), schema);
    expect(extraction.rows).toEqual([{ product: "apple", price: 1, in_stock: null }]);
    expect(fake.requestCount).toBe(2);
  });

  it("asks again after a request that timed out", async () => {
    fake = await startFakeModel({
      respond: (request) =>
        request.number === 1 ? { ...readPrices(request), delayMs: 20_000 } : readPrices(request),
    });
    const extraction = await extractorFor(fake, { requestTimeoutMs: 200 }).extractRows(
      priceList(["apple"]),
      schema,
    );
    expect(extraction.rows).toHaveLength(1);
    expect(fake.requestCount).toBe(2);
  });

  it("asks again when nothing answers at the address, and fails without naming the key", async () => {
    const gone = await startFakeModel({ respond: readPrices });
    await gone.close();
    const failure = await extractorFor(gone)
      .extractRows(priceList(["apple"]), schema)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExtractionError);
    expect((failure as Error).message).toMatch(
      /after 3 attempt.*No answer from the model at http:\/\/127\.0\.0\.1/,
    );
    expect((failure as Error).message).not.toContain("sk-");
  });

  it("fails with ExtractionError when the model answers garbage every time", async () => {
    fake = await startFakeModel({ respond: () => completionReply("not json") });
    const failure = await extractorFor(fake)
      .extractRows(priceList(["apple"]), schema)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExtractionError);
    expect((failure as ExtractionError).code).toBe("extraction_failed");
    expect((failure as ExtractionError).message).toMatch(/after 3 attempt/);
    expect(fake.requestCount).toBe(quickRetry.attempts);
  });

  it("does not ask again after an answer that will not change (a bad request or key)", async () => {
    fake = await startFakeModel({ respond: () => errorReply(401, "Incorrect API key provided: sk-te**st") });
    const failure = await extractorFor(fake)
      .extractRows(priceList(["apple"]), schema)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExtractionError);
    expect((failure as Error).message).toMatch(/refused the API key/);
    expect((failure as Error).message).not.toContain("sk-");
    expect(fake.requestCount).toBe(1);
  });

  it("stops the other chunks once one has failed for good", async () => {
    fake = await startFakeModel({
      respond: async (request) => {
        if (!messageOf(request, "user").includes("part 1/"))
          return { ...readPrices(request), delayMs: 20_000 };
        // Fail only once other chunks' requests are in flight, so that there is something to stop.
        await eventually(() => (fake?.inFlight ?? 0) >= 3);
        return errorReply(400, "bad request");
      },
    });
    const failure = await extractorFor(fake)
      .extractRows(priceList(), schema)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExtractionError);
    await eventually(() => fake?.inFlight === 0);
    expect(fake.inFlight).toBe(0);
    expect(fake.abandonedCount).toBeGreaterThanOrEqual(2);
  });
});

describe("bounding and stopping model requests", () => {
  it("runs the chunks concurrently, never more at once than the shared semaphore allows", async () => {
    const capacity = 3;
    // The first requests are held until `capacity` of them are in flight together (or 5 seconds pass),
    // so a bound that was not enforced shows as more than `capacity`, and no concurrency as fewer.
    let held: (() => void)[] = [];
    let opened = false;
    fake = await startFakeModel({
      respond: async (request) => {
        if (!opened) {
          await new Promise<void>((release) => {
            held.push(release);
            if (held.length >= capacity) {
              opened = true;
              for (const r of held) r();
              held = [];
            }
            setTimeout(release, 5000);
          });
        }
        return { ...readPrices(request), delayMs: 5 };
      },
    });
    const modelRequests = new Semaphore(capacity);
    const extractor = extractorFor(fake, { modelRequests });
    const [first, second] = await Promise.all([
      extractor.extractRows(priceList(products.slice(0, 5)), schema),
      extractor.extractRows(priceList(products.slice(5)), schema),
    ]);
    expect(first.rows.map((row) => row.product)).toEqual(products.slice(0, 5));
    expect(second.rows.map((row) => row.product)).toEqual(products.slice(5));
    expect(fake.requestCount).toBe(first.chunkCount + second.chunkCount);
    expect(fake.requestCount).toBeGreaterThan(capacity);
    expect(fake.maxInFlight).toBe(capacity);
    expect(modelRequests.inUse).toBe(0);
  });

  it("stops at once when its signal aborts, with the signal's reason and every permit given back", async () => {
    let arrived: () => void = () => {};
    const firstArrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    fake = await startFakeModel({
      respond: (request) => {
        arrived();
        return { ...readPrices(request), delayMs: 20_000 };
      },
    });
    // One permit for many chunks: one request in flight, the other chunks waiting their turn.
    const modelRequests = new Semaphore(1);
    const controller = new AbortController();
    const outcome = extractorFor(fake, { modelRequests }).extractRows(priceList(), schema, {
      signal: controller.signal,
    });
    await firstArrival;
    const reason = new Error("worker shutting down");
    controller.abort(reason);
    await expect(outcome).rejects.toBe(reason);
    await eventually(() => fake?.inFlight === 0);
    expect(fake.abandonedCount).toBe(1);
    expect(fake.requestCount).toBe(1);
    expect(modelRequests.inUse).toBe(0);
  });

  it("asks nothing when its signal has already aborted", async () => {
    fake = await startFakeModel({ respond: readPrices });
    const controller = new AbortController();
    controller.abort();
    await expect(
      extractorFor(fake).extractRows(priceList(), schema, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(fake.requestCount).toBe(0);
  });
});
