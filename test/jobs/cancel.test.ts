// Cancelling a job: waiting videos fail at once, videos in flight are abandoned, the books stay exact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type FakeModelRequest, messageOf, rowsReply } from "../support/fake-model.js";
import { newVideoId } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { waitUntil } from "../support/waiting.js";
import {
  startWebhookReceiver,
  type WebhookReceiver,
  settledEventTypes,
} from "../support/webhook-receiver.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

const schema = { columns: ["product", "price"] };

/**
 * A model whose requests for transcripts carrying HELD wait until `release` (or until the worker
 * aborts them): videos in flight for exactly as long as a test needs, with no timing involved.
 */
function heldModel() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const respond = async (request: FakeModelRequest) => {
    if (messageOf(request, "user").includes("HELD")) await gate;
    return rowsReply([{ product: "widget", price: 5 }]);
  };
  return { respond, release };
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`cancelling a job on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    const model = heldModel();
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startPipelineServer(dialect.name, {
        respond: model.respond,
        // A one-second lease: the heartbeat renews it every third of it (cancellations are seen apart from it).
        config: {
          worker: { videoLeaseSeconds: 1, videosInFlight: 4, modelConcurrency: 4, shutdownGraceSeconds: 0 },
          webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2], leaseSeconds: 60 },
        },
        app: { dispatcher: { pollIntervalMs: 50 } },
      });
    });
    afterAll(async () => {
      model.release();
      await server?.close();
      await receiver?.close();
    });

    const video = (words: string) => {
      const id = newVideoId();
      server.addCaptions(id, 30, [`We sell the widget for five dollars. ${id} ${words}`]);
      return id;
    };
    const countsOf = async (key: string, jobId: string) =>
      (await server.call("GET", `/v1?search=${jobId}`, { key })).body.data[0];

    it("fails waiting videos at once, abandons those in flight, charges only what was done, and fires each webhook once", async () => {
      const { key, workspaceId } = await server.workspace();
      const path = `/${dialect.name}/cancel`;
      const endpoint = await server.call("POST", "/v1/webhooks", {
        key,
        body: { url: `${receiver.origin}${path}` },
      });
      expect(endpoint.status, endpoint.text).toBe(201);
      const startingBalance = (await readBooks(server.app.store, workspaceId)).workspace.balance;

      // Two videos finish; the next four are held in flight (the worker's four places); 30 wait.
      const quick = [video("quick"), video("quick")];
      const slow = Array.from({ length: 34 }, () => video("HELD"));
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: [...quick, ...slow], schema },
      });
      expect(submitted.status, submitted.text).toBe(202);
      const jobId = submitted.body.job_id as string;
      await waitUntil(
        "two videos done and four in flight",
        async () => {
          const item = await countsOf(key, jobId);
          return item.counts.done === 2 && item.counts.processing === 4 ? item : undefined;
        },
        workWaitMs,
      );
      const inFlight = server.model.requests.filter((r) => messageOf(r, "user").includes("HELD")).length;
      expect(inFlight).toBeGreaterThan(0);

      const cancelled = await server.call("POST", `/v1/${jobId}/cancel`, { key });
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.body).toEqual({
        job_id: jobId,
        status: "processing",
        videos: 36,
        // The 30 waiting videos were taken by the cancellation, the four in flight are their workers'.
        counts: { queued: 0, processing: 34, done: 2, failed: 0 },
        results: null,
      });

      // The held model calls are never let go: the job settles only because the worker abandons them.
      const settled = await server.waitForSettled(key, jobId);
      expect(settled.status).toBe("partial");
      // The list says the job was cancelled, where its status alone says only `partial`.
      expect((await countsOf(key, jobId)).cancelled_at).toMatch(/^\d{4}-\d{2}-\d{2}/);
      expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 2, failed: 34 });
      expect(settled.credits_charged).toBe(2);
      for (const result of settled.results.slice(2)) {
        expect(result).toMatchObject({
          status: "failed",
          credits_charged: 0,
          error: { code: "cancelled", retryable: false },
        });
      }
      expect(settled.results.slice(0, 2).map((r: any) => r.status)).toEqual(["done", "done"]);

      const books = await readBooks(server.app.store, workspaceId);
      expect(settledBooksProblems(books, startingBalance)).toEqual([]);
      expect(books.charges).toHaveLength(2);
      expect(books.failuresByCode).toEqual({ cancelled: 34 });
      expect(books.workspace).toMatchObject({ jobs_processing: 0, jobs_queued: 0 });

      // job.completed (partial) and batch.completed, once each: wait until nothing is pending, then count.
      const events = await settledEventTypes(server.app.store, receiver, {
        path,
        count: 2,
        secret: endpoint.body.secret,
      });
      expect(events.sort()).toEqual(["batch.completed", "job.completed"]);

      // Settled now: cancelling again is a conflict, and says why.
      const again = await server.call("POST", `/v1/${jobId}/cancel`, { key });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: "job_settled", param: "job_id" });
      expect(again.body.error.message).toContain("already settled");
    });

    it("answers 404 for another workspace's job and for an unknown one, and changes nothing", async () => {
      const owner = await server.workspace();
      const other = await server.workspace();
      const id = video("HELD");
      const submitted = await server.call("POST", "/v1", { key: owner.key, body: { videos: [id], schema } });
      expect(submitted.status, submitted.text).toBe(202);
      const jobId = submitted.body.job_id as string;

      const foreign = await server.call("POST", `/v1/${jobId}/cancel`, { key: other.key });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe("job_not_found");
      const unknown = await server.call("POST", "/v1/job_doesnotexist/cancel", { key: owner.key });
      expect(unknown.status).toBe(404);
      expect((await countsOf(owner.key, jobId)).status).toBe("processing");

      // The owner can; a second cancellation while it runs answers the same shape (or, if the
      // worker already abandoned the video, that the job has settled).
      const first = await server.call("POST", `/v1/${jobId}/cancel`, { key: owner.key });
      expect(first.status, first.text).toBe(200);
      expect(first.body.status).toBe("processing");
      const settled = await server.waitForSettled(owner.key, jobId);
      expect(settled.status).toBe("failed");
      expect(settled.results[0].error.code).toBe("cancelled");
    });
  });
}
