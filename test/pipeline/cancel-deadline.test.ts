// Cancellation within 2 seconds (contract §12): after the answer to a cancel, no model request of the
// job starts more than 2 s later on any worker, those in flight are aborted, and the books and
// webhooks of the cancelled job add up. With a worker in the API's process (told at once by the
// route) and with two `vidrows worker` processes (which see it through cancellation-watch.ts).
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sleep } from "../../src/concurrency/sleep.js";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { type DialectName, dialects, dialectTitle } from "../support/databases.js";
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

/** The contract's bound, from the cancel's answer to the last model request of the job. */
const cancellationDeadlineMs = 2000;

// Each worker holds four videos and asks the model about one at a time, 1.5 s each: a video in hand
// would otherwise start its model request up to 4.5 s after the job began, well past the deadline.
const videosPerWorker = 4;
const modelAnswerMs = 1500;

type Workers = "in the API's process" | "two worker processes";
const cases: { dialect: DialectName; workers: Workers }[] = [
  { dialect: "sqlite", workers: "in the API's process" },
  { dialect: "postgres", workers: "two worker processes" },
  { dialect: "sqlite", workers: "two worker processes" },
  { dialect: "postgres", workers: "in the API's process" },
];

for (const { dialect: dialectName, workers } of cases) {
  const dialect = dialects.find((d) => d.name === dialectName);
  if (!dialect) throw new Error(`no dialect ${dialectName}`);
  const workerCount = workers === "two worker processes" ? 2 : 1;

  describe.skipIf(dialect.skipReason !== null)(
    `cancelling within 2 seconds on ${dialectTitle(dialect)}, ${workers}`,
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
            return { ...rowsReply([{ product: "widget", price: 5 }]), delayMs: modelAnswerMs };
          },
          // The default lease (120 s, renewed every 40 s): the renewal plays no part in seeing the cancel.
          config: {
            worker: {
              videoLeaseSeconds: 120,
              videosInFlight: videosPerWorker,
              modelConcurrency: 1,
              shutdownGraceSeconds: 0,
            },
            webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2], leaseSeconds: 60 },
          },
          app: { work: workerCount === 1, dispatcher: { pollIntervalMs: 50 } },
        });
        if (workerCount === 2) {
          const settings = {
            VIDROWS_WORKER_VIDEOS: String(videosPerWorker),
            VIDROWS_MODEL_CONCURRENCY: "1",
            VIDROWS_WEBHOOK_ALLOW_PRIVATE: "1",
            NODE_EXTRA_CA_CERTS: fileURLToPath(new URL("../fixtures/tls/cert.pem", import.meta.url)),
          };
          await Promise.all([startWorkerFor(server, settings), startWorkerFor(server, settings)]);
        }
      });
      afterAll(async () => {
        release();
        await killAllChildren();
        await server?.close();
        await receiver?.close();
      });

      const requestsOf = (ids: string[]) =>
        server.model.requests.filter((request) => ids.some((id) => messageOf(request, "user").includes(id)));
      const countsOf = async (key: string, jobId: string) =>
        (await server.call("GET", `/v1?search=${jobId}`, { key })).body.data[0].counts;
      /** Waits until every worker holds its videos and the model has been asked about one of them. */
      const waitUntilWorking = (key: string, jobId: string, ids: string[]) =>
        waitUntil(
          "every worker holding its videos and the model asked",
          async () =>
            (await countsOf(key, jobId)).processing === videosPerWorker * workerCount &&
            requestsOf(ids).length > 0,
          workWaitMs,
          10,
        );

      it("sends no model request of a 20-video job 2 s after the cancel, charges only what was done, and fires each webhook once", async () => {
        const { key, workspaceId } = await server.workspace("pro");
        const path = `/${dialect.name}/${workerCount}/deadline`;
        const endpoint = await server.call("POST", "/v1/webhooks", {
          key,
          body: { url: `${receiver.origin}${path}` },
        });
        expect(endpoint.status, endpoint.text).toBe(201);
        const startingBalance = (await readBooks(server.app.store, workspaceId)).workspace.balance;

        const ids = videoIds(`dl${workerCount}`, 20);
        for (const id of ids) server.addCaptions(id, 30, [`Widgets for five dollars. ${id}`]);
        const jobId = await submitJob(server, key, ids);
        // Half a second after the job's work began (worker processes poll for it, so not from the submission).
        await waitUntilWorking(key, jobId, ids);
        const firstRequestAt = Math.min(...requestsOf(ids).map((request) => request.receivedAt));
        await sleep(firstRequestAt + 500 - Date.now());
        const cancelled = await server.call("POST", `/v1/${jobId}/cancel`, { key });
        const cancelAnsweredAt = Date.now();
        expect(cancelled.status, cancelled.text).toBe(200);
        expect(cancelled.body.counts.queued).toBe(0);

        const settled = await server.waitForSettled(key, jobId, workWaitMs);

        // The contract's one timing rule, on the times the model received each request.
        const late = requestsOf(ids)
          .filter((request) => request.receivedAt > cancelAnsweredAt + cancellationDeadlineMs)
          .map((request) => `${request.receivedAt - cancelAnsweredAt} ms after the cancel`);
        expect(late).toEqual([]);

        const { done, failed } = settled.counts;
        expect(done + failed).toBe(20);
        expect(settled.counts).toMatchObject({ queued: 0, processing: 0 });
        // At least the videos no worker held were cancelled.
        expect(failed).toBeGreaterThanOrEqual(20 - videosPerWorker * workerCount);
        for (const result of settled.results.filter((r: any) => r.status === "failed")) {
          expect(result).toMatchObject({
            credits_charged: 0,
            error: { code: "cancelled", retryable: false },
          });
        }
        // A done video's charge is in its usage: the top-level credits_charged is a failed video's (0).
        const chargedForDone = settled.results
          .filter((r: any) => r.status === "done")
          .reduce((sum: number, r: any) => sum + r.usage.credits_charged, 0);
        expect(settled.credits_charged).toBe(chargedForDone);

        const books = await readBooks(server.app.store, workspaceId);
        expect(settledBooksProblems(books, startingBalance)).toEqual([]);
        expect(startingBalance - books.workspace.balance).toBe(settled.credits_charged);
        expect(books.failuresByCode).toEqual({ cancelled: failed });

        const events = await settledEventTypes(
          server.app.store,
          receiver,
          { path, count: 2, secret: endpoint.body.secret },
          workWaitMs,
        );
        const jobEvent = settled.status === "failed" ? "job.failed" : "job.completed";
        expect(events.sort()).toEqual(["batch.completed", jobEvent]);
      });

      it("aborts the model requests in flight (the model sees their connections closed)", async () => {
        const { key } = await server.workspace("pro");
        const ids = videoIds(`ab${workerCount}`, 10);
        for (const id of ids) server.addCaptions(id, 30, [`Widgets for five dollars. ${id} HELD`]);
        const jobId = await submitJob(server, key, ids);
        // One request in flight per worker (each asks the model about one video at a time).
        await waitUntilWorking(key, jobId, ids);
        await waitUntil(
          "a request in flight per worker",
          () => requestsOf(ids).length === workerCount,
          workWaitMs,
        );

        const cancelled = await server.call("POST", `/v1/${jobId}/cancel`, { key });
        expect(cancelled.status, cancelled.text).toBe(200);

        // The held requests are never answered: the job settles only because the workers abort them.
        const settled = await server.waitForSettled(key, jobId, workWaitMs);
        expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 0, failed: 10 });
        const held = requestsOf(ids);
        expect(held).toHaveLength(workerCount);
        await waitUntil(
          "the model to see every held request's connection closed",
          () => held.every((request) => request.outcome === "abandoned"),
          workWaitMs,
        );
      });
    },
  );
}
