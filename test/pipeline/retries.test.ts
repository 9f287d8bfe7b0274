// Retries in the worker: passing failures of the captions server and the model are tried again before a
// video fails, and a video that fails for good is retryable and costs nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../captions/local-servers.js";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { dialects, dialectTitle } from "../support/databases.js";
import {
  completionReply,
  errorReply,
  type FakeModel,
  messageOf,
  rowsReply,
  startFakeModel,
} from "../support/fake-model.js";
import { webVtt } from "../support/pipeline.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { sleep } from "../../src/concurrency/sleep.js";

const captionAttempts = 4;
const modelAttempts = 3;
const schema = { columns: ["product", "price"] };

// Videos by what their captions server and model do; a marker word in a video's captions tells the
// model which video a request is about.
const flakyCaptions = "flaky500cap"; // 500 twice, then the file
const downCaptions = "down500capt"; // 500 always
const garbageModel = "garbagemodl"; // the model answers garbage always
const flakyModel = "flakymodel1"; // the model answers 503 twice, then rows

function captionsOf(videoId: string): string {
  return webVtt(45, [`The ${videoId} widget costs five dollars.`, "That is all."]);
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`retries in the worker on ${dialectTitle(dialect)}`, () => {
    let captions: LocalServer;
    let model: FakeModel;
    let server: TestServer;
    const modelAsked = new Map<string, number>();

    beforeAll(async () => {
      captions = await startLocalServer((request, response) => {
        const videoId = request.url.pathname.replace(/^\/|\.vtt$/g, "");
        const hits = captions.requests.filter((r) => r.url.pathname === request.url.pathname).length;
        const failing = videoId === downCaptions || (videoId === flakyCaptions && hits <= 2);
        if (failing) {
          response.writeHead(500, { "content-type": "text/plain" }).end("upstream on fire");
          return;
        }
        response.writeHead(200, { "content-type": "text/vtt" }).end(captionsOf(videoId));
      });
      model = await startFakeModel({
        respond: (request) => {
          const about =
            [garbageModel, flakyModel].find((id) => messageOf(request, "user").includes(id)) ?? "";
          const asked = (modelAsked.get(about) ?? 0) + 1;
          modelAsked.set(about, asked);
          if (about === garbageModel) return completionReply("Sure! Here are your rows: product=widget");
          if (about === flakyModel && asked <= 2) return errorReply(503, "overloaded");
          return rowsReply([{ product: "widget", price: 5 }]);
        },
      });
      server = await startTestServer(
        dialect.name,
        {
          captions: `${captions.origin}/{video_id}.vtt`,
          model: { baseUrl: model.url, apiKey: "test-key", model: "fake-model" },
        },
        {
          worker: { captionAttempts, retryBaseMs: 20 },
          extraction: { retry: { attempts: modelAttempts, baseDelayMs: 10, maxDelayMs: 50 } },
        },
      );
    });
    afterAll(async () => {
      await server?.close();
      await model?.close();
      await captions?.close();
    });

    /** How many times the captions server was asked for `videoId`. */
    const captionRequests = (videoId: string) =>
      captions.requests.filter((r) => r.url.pathname === `/${videoId}.vtt`).length;

    async function runJob(key: string, videos: string[]) {
      const submitted = await server.call("POST", "/v1", { key, body: { videos, schema } });
      expect(submitted.status).toBe(202);
      const deadline = Date.now() + 20_000;
      for (;;) {
        const read = await server.call("GET", `/v1/${submitted.body.job_id}`, { key });
        if (read.body.status !== "processing") return read.body;
        if (Date.now() > deadline) throw new Error(`job did not settle: ${read.text}`);
        await sleep(50);
      }
    }

    it("settles a video whose captions server failed twice, and one whose model failed twice", async () => {
      const { workspaceId, key } = await server.workspace("pro");
      const settled = await runJob(key, [flakyCaptions, flakyModel]);
      expect(settled.status).toBe("done");
      expect(settled.credits_charged).toBe(2);
      for (const result of settled.results) {
        expect(result.rows.results).toEqual([{ product: "widget", price: 5 }]);
        expect(result.usage.credits_charged).toBe(1);
      }
      expect(captionRequests(flakyCaptions)).toBe(3);
      expect(modelAsked.get(flakyModel)).toBe(3);
      expect(settledBooksProblems(await readBooks(server.app.store, workspaceId), 10_000)).toEqual([]);
    });

    it("fails a video whose captions server always fails with captions_unavailable, retryable, for 0 credits", async () => {
      const { workspaceId, key } = await server.workspace("pro");
      const settled = await runJob(key, [downCaptions]);
      expect(settled.status).toBe("failed");
      expect(settled.credits_charged).toBe(0);
      expect(settled.results).toEqual([
        {
          id: expect.stringMatching(/^vid_/),
          video_id: downCaptions,
          status: "failed",
          rows: null,
          error: { code: "captions_unavailable", message: expect.any(String), retryable: true },
          credits_charged: 0,
        },
      ]);
      expect(captionRequests(downCaptions)).toBe(captionAttempts);
      const books = await readBooks(server.app.store, workspaceId);
      expect(settledBooksProblems(books, 10_000)).toEqual([]);
      expect(books.charges).toEqual([]);
    });

    it("fails a video whose model always answers garbage with extraction_failed, retryable, for 0 credits", async () => {
      const { workspaceId, key } = await server.workspace("pro");
      const settled = await runJob(key, [garbageModel]);
      expect(settled.status).toBe("failed");
      expect(settled.results[0]).toMatchObject({
        status: "failed",
        rows: null,
        error: { code: "extraction_failed", retryable: true },
        credits_charged: 0,
      });
      expect(modelAsked.get(garbageModel)).toBe(modelAttempts);
      const books = await readBooks(server.app.store, workspaceId);
      expect(settledBooksProblems(books, 10_000)).toEqual([]);
      expect(books.failuresByCode).toEqual({ extraction_failed: 1 });
    });
  });
}
