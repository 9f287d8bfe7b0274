// Money limits under concurrent settlement: a small balance and a hard cap are never overspent, however
// many videos finish at once; the videos that cannot be paid for fail, retryable, and cost nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

const videosInFlight = 16;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `credit limits under concurrent settlement on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      // On PostgreSQL a second worker with a connection pool of its own settles alongside the server's.
      let secondWorker: App | undefined;
      beforeAll(async () => {
        server = await startPipelineServer(dialect.name, {
          // Slow enough that the videos in flight all finish together and race to settle.
          modelDelayMs: 300,
          config: {
            worker: {
              videoLeaseSeconds: 120,
              videosInFlight,
              modelConcurrency: videosInFlight,
              shutdownGraceSeconds: 10,
            },
          },
        });
        if (dialect.name === "postgres") {
          secondWorker = await createApp(server.app.config, {
            serve: false,
            work: true,
            worker: { pollIntervalMs: 50 },
          });
          await secondWorker.start();
        }
      });
      afterAll(async () => {
        await secondWorker?.stop();
        await server?.close();
      });

      /** Submits 20 one-credit videos and answers the first settled read of the job. */
      async function twentyOneCreditVideos(key: string, prefix: string) {
        const ids = videoIds(prefix, 20);
        for (const id of ids) server.addCaptions(id, 30);
        const jobId = await submitJob(server, key, ids);
        return server.waitForSettled(key, jobId, workWaitMs);
      }

      it("charges exactly the balance of 5 and fails the other 15 with insufficient_credits", async () => {
        const { workspaceId, key } = await server.workspace("pro");
        await server.app.store.db
          .updateTable("workspaces")
          .set({ balance: 5 })
          .where("id", "=", workspaceId)
          .execute();

        const settled = await twentyOneCreditVideos(key, "lowbal");
        expect(settled.status).toBe("partial");
        expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 5, failed: 15 });
        expect(settled.credits_charged).toBe(5);
        const done = settled.results.filter((r: any) => r.status === "done");
        expect(done.map((r: any) => r.usage.credits_charged)).toEqual([1, 1, 1, 1, 1]);
        const failed = settled.results.filter((r: any) => r.status === "failed");
        expect(failed).toHaveLength(15);
        for (const result of failed) {
          expect(result).toMatchObject({
            status: "failed",
            rows: null,
            error: { code: "insufficient_credits", retryable: true },
            credits_charged: 0,
          });
        }

        const books = await readBooks(server.app.store, workspaceId);
        expect(settledBooksProblems(books, 5)).toEqual([]);
        expect(books.workspace.balance).toBe(0);
        expect(books.charges.map((c) => c.balance_after).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
        const usage = await server.call("GET", "/v1/usage", { key });
        expect(usage.body.credits.balance).toBe(0);
        expect(usage.body.credits.used_this_cycle).toBe(5);
        expect(usage.body.failures_by_code).toEqual({ insufficient_credits: 15 });
      });

      it("stops at a hard cap of 3 and fails the other 17 with hard_cap_reached", async () => {
        const { workspaceId, key } = await server.workspace("pro");
        const capped = await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: 3 } });
        expect(capped.status).toBe(200);

        const settled = await twentyOneCreditVideos(key, "hardcap");
        expect(settled.status).toBe("partial");
        expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 3, failed: 17 });
        expect(settled.credits_charged).toBe(3);
        const failed = settled.results.filter((r: any) => r.status === "failed");
        for (const result of failed) {
          expect(result).toMatchObject({
            error: { code: "hard_cap_reached", retryable: true },
            credits_charged: 0,
          });
        }

        const books = await readBooks(server.app.store, workspaceId);
        expect(settledBooksProblems(books, 10_000)).toEqual([]);
        expect(books.workspace.used_this_cycle).toBe(3);
        expect(books.workspace.balance).toBe(10_000 - 3);
        const usage = await server.call("GET", "/v1/usage", { key });
        expect(usage.body.credits).toMatchObject({ balance: 10_000 - 3, used_this_cycle: 3, hard_cap: 3 });
        expect(usage.body.failures_by_code).toEqual({ hard_cap_reached: 17 });
      });
    },
  );
}
