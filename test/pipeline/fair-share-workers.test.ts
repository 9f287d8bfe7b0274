// One workspace's stalled videos do not hold a `vidrows worker` process from another workspace's video: the
// next place that frees goes to the newcomer, and with a cap per workspace one is free from the start.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { type FakeModelRequest, messageOf, rowsReply } from "../support/fake-model.js";
import type { PipelineServer } from "../support/pipeline.js";
import { killAllChildren, type WorkerProcess } from "../support/processes.js";
import { waitUntil } from "../support/waiting.js";
import { startApiWithoutWorker, startWorkerFor, submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

const stallLines = ["STALL: this page never answers.", "That is all."];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `a worker's places shared between workspaces on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let worker: WorkerProcess | undefined;
      // Model requests about STALL transcripts wait here until released, one by one or all at once.
      const stalled: (() => void)[] = [];
      let stalling = true;
      beforeAll(async () => {
        server = await startApiWithoutWorker(dialect.name, {
          respond: async (request: FakeModelRequest) => {
            if (stalling && messageOf(request, "user").includes("STALL")) {
              await new Promise<void>((resolve) => stalled.push(resolve));
            }
            return rowsReply([{ product: "widget", price: 5 }]);
          },
        });
      });
      const releaseAll = () => {
        stalling = false;
        for (const release of stalled.splice(0)) release();
      };
      afterEach(async () => {
        // Every job of the test runs to its end before the next test's worker starts.
        releaseAll();
        await waitUntil(
          "every job to settle",
          async () => {
            const open = await server.app.store.db
              .selectFrom("jobs")
              .select("id")
              .where("status", "=", "processing")
              .execute();
            return open.length === 0;
          },
          workWaitMs,
          50,
        );
        await worker?.stop();
        worker = undefined;
        stalling = true;
      });
      afterAll(async () => {
        releaseAll();
        await killAllChildren();
        await server?.close();
      });

      /** A workspace whose job of 8 videos stalls in the model, and another's one video submitted after. */
      async function stallingWorkspaceThenNewcomer(prefix: string) {
        const first = await server.workspace("scale");
        const firstIds = videoIds(`${prefix}s`, 8);
        for (const id of firstIds) server.addCaptions(id, 30, stallLines);
        const firstJob = await submitJob(server, first.key, firstIds);
        await waitUntil("the worker to hold 4 stalled videos", () => stalled.length >= 4, workWaitMs, 20);
        const newcomer = await server.workspace("pro");
        const [soloId] = videoIds(`${prefix}n`, 1) as [string];
        server.addCaptions(soloId, 30);
        const soloJob = await submitJob(server, newcomer.key, [soloId]);
        return { first, firstJob, newcomer, soloJob };
      }

      const statusesOf = async (jobId: string) =>
        (
          await server.app.store.db
            .selectFrom("videos")
            .select("status")
            .where("job_id", "=", jobId)
            .execute()
        ).map((video) => video.status);

      it("gives the first place freed to the newcomer, before the stalled workspace's other 4", async () => {
        worker = await startWorkerFor(server, {
          VIDROWS_WORKER_VIDEOS: "4",
          VIDROWS_MODEL_CONCURRENCY: "8",
          VIDROWS_SHUTDOWN_GRACE_SECONDS: "0",
        });
        const { first, firstJob, newcomer, soloJob } = await stallingWorkspaceThenNewcomer("ff");
        // The worker's 4 places are all the first workspace's: the newcomer's video waits in the queue.
        expect(stalled).toHaveLength(4);
        const waiting = await server.call("GET", `/v1/${soloJob}`, { key: newcomer.key });
        expect(waiting.body.counts).toMatchObject({ queued: 1, processing: 0 });

        // One stalled page answers; the place it frees is the newcomer's, not the first workspace's fifth.
        stalled.shift()?.();
        const solo = await server.waitForSettled(newcomer.key, soloJob, workWaitMs);
        expect(solo.status).toBe("done");
        // In the order the model saw them: the first workspace's 4, then the newcomer's, then the rest.
        const stalls = server.model.requests.map((request) => messageOf(request, "user").includes("STALL"));
        expect(stalls.slice(0, 5)).toEqual([true, true, true, true, false]);

        // The stalled workspace is not starved: once its pages answer, its job runs to the end.
        releaseAll();
        const all = await server.waitForSettled(first.key, firstJob, workWaitMs);
        expect(all.status).toBe("done");
        expect(await statusesOf(firstJob)).toEqual(Array(8).fill("done"));
      });

      it("with a cap of 3 of 4 places per workspace, runs the newcomer's video while all the others stall", async () => {
        worker = await startWorkerFor(server, {
          VIDROWS_WORKER_VIDEOS: "4",
          VIDROWS_WORKER_WORKSPACE_VIDEOS: "3",
          VIDROWS_MODEL_CONCURRENCY: "8",
          VIDROWS_SHUTDOWN_GRACE_SECONDS: "0",
        });
        const first = await server.workspace("scale");
        const firstIds = videoIds("cps", 8);
        for (const id of firstIds) server.addCaptions(id, 30, stallLines);
        const firstJob = await submitJob(server, first.key, firstIds);
        await waitUntil("the worker to hold 3 stalled videos", () => stalled.length >= 3, workWaitMs, 20);
        const newcomer = await server.workspace("pro");
        const [soloId] = videoIds("cpn", 1) as [string];
        server.addCaptions(soloId, 30);
        const soloJob = await submitJob(server, newcomer.key, [soloId]);
        // Nothing of the first workspace's is released: the place kept open takes the newcomer's video.
        const solo = await server.waitForSettled(newcomer.key, soloJob, workWaitMs);
        expect(solo.status).toBe("done");
        expect(stalled).toHaveLength(3);
        expect((await statusesOf(firstJob)).filter((status) => status === "processing")).toHaveLength(3);
      });
    },
  );
}
