// Cancelling a 100-video job mid-run while two `vidrows worker` processes work on it: the API process
// writes the cancellation, the workers read it, and the books and webhooks come out exact.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type FakeModelRequest, messageOf, rowsReply } from "../support/fake-model.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { killAllChildren } from "../support/processes.js";
import { waitUntil } from "../support/waiting.js";
import {
  startWebhookReceiver,
  type WebhookReceiver,
  settledEventTypes,
} from "../support/webhook-receiver.js";
import { startWorkerFor, submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `cancelling across processes on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let receiver: WebhookReceiver;
      // Requests about HELD transcripts wait until the suite ends, unless the worker aborts them first.
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      beforeAll(async () => {
        receiver = await startWebhookReceiver();
        server = await startPipelineServer(dialect.name, {
          respond: async (request: FakeModelRequest) => {
            if (messageOf(request, "user").includes("HELD")) await gate;
            return rowsReply([{ product: "widget", price: 5 }]);
          },
          config: { webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2], leaseSeconds: 60 } },
          app: { work: false },
        });
      });
      afterAll(async () => {
        release();
        await killAllChildren();
        await server?.close();
        await receiver?.close();
      });

      it("fails the 90 videos not done, charges the 10 done, and fires each webhook once", async () => {
        const { key, workspaceId } = await server.workspace("pro");
        const path = `/${dialect.name}/workers`;
        const endpoint = await server.call("POST", "/v1/webhooks", {
          key,
          body: { url: `${receiver.origin}${path}` },
        });
        expect(endpoint.status, endpoint.text).toBe(201);
        const startingBalance = (await readBooks(server.app.store, workspaceId)).workspace.balance;

        const ids = videoIds("cancel", 100);
        ids.forEach((id, position) =>
          server.addCaptions(id, 30, [`Widgets for five dollars. ${id} ${position < 10 ? "quick" : "HELD"}`]),
        );
        const jobId = await submitJob(server, key, ids);
        const settings = {
          VIDROWS_VIDEO_LEASE_SECONDS: "1",
          VIDROWS_WORKER_VIDEOS: "4",
          VIDROWS_MODEL_CONCURRENCY: "4",
          VIDROWS_WEBHOOK_ALLOW_PRIVATE: "1",
          NODE_EXTRA_CA_CERTS: fileURLToPath(new URL("../fixtures/tls/cert.pem", import.meta.url)),
        };
        await Promise.all([startWorkerFor(server, settings), startWorkerFor(server, settings)]);
        // The ten quick videos done, and both workers' four places taken by held ones.
        await waitUntil(
          "10 videos done and 8 in flight",
          async () => {
            const item = (await server.call("GET", `/v1?search=${jobId}`, { key })).body.data[0];
            return item.counts.done === 10 && item.counts.processing === 8;
          },
          workWaitMs,
        );

        const cancelled = await server.call("POST", `/v1/${jobId}/cancel`, { key });
        expect(cancelled.status, cancelled.text).toBe(200);
        expect(cancelled.body.counts).toEqual({ queued: 0, processing: 90, done: 10, failed: 0 });

        const settled = await server.waitForSettled(key, jobId, workWaitMs);
        expect(settled.status).toBe("partial");
        expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 10, failed: 90 });
        expect(settled.credits_charged).toBe(10);
        const codes = settled.results.slice(10).map((r: any) => [r.error.code, r.error.retryable]);
        expect(new Set(codes.map(String))).toEqual(new Set(["cancelled,false"]));

        const books = await readBooks(server.app.store, workspaceId);
        expect(settledBooksProblems(books, startingBalance)).toEqual([]);
        expect(books.charges).toHaveLength(10);
        expect(books.failuresByCode).toEqual({ cancelled: 90 });

        const events = await settledEventTypes(
          server.app.store,
          receiver,
          { path, count: 2, secret: endpoint.body.secret },
          workWaitMs,
        );
        expect(events.sort()).toEqual(["batch.completed", "job.completed"]);
      });
    },
  );
}
