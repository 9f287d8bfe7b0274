// The fair queue: one workspace's 300-video job does not make another workspace's one video wait for it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { waitUntil } from "../support/waiting.js";
import { submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`the fair queue on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name, {
        modelDelayMs: 30,
        config: {
          worker: {
            videoLeaseSeconds: 120,
            videosInFlight: 4,
            modelConcurrency: 4,
            shutdownGraceSeconds: 10,
          },
        },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("settles a newcomer's one video while most of a 300-video job is still queued", async () => {
      const big = await server.workspace("scale");
      const small = await server.workspace("pro");
      const bigIds = videoIds("bulk", 300);
      for (const id of bigIds) server.addCaptions(id, 30);
      const [smallId] = videoIds("solo", 1) as [string];
      server.addCaptions(smallId, 30);

      const bigJob = await submitJob(server, big.key, bigIds);
      const smallJob = await submitJob(server, small.key, [smallId]);
      const smallSettled = await server.waitForSettled(small.key, smallJob, workWaitMs);
      expect(smallSettled.status).toBe("done");

      const stillQueued = await server.app.store.db
        .selectFrom("videos")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("job_id", "=", bigJob)
        .where("status", "=", "queued")
        .executeTakeFirstOrThrow();
      // In submission order the one video would have come after all 300.
      expect(Number(stillQueued.n)).toBeGreaterThan(200);

      // The big job is not starved either: it runs to the end.
      await waitUntil(
        "the 300-video job to settle",
        async () => {
          const job = await server.app.store.db
            .selectFrom("jobs")
            .select(["status", "done_count"])
            .where("id", "=", bigJob)
            .executeTakeFirstOrThrow();
          return job.status !== "processing" && job;
        },
        workWaitMs,
        200,
      ).then((job) => expect(job).toEqual({ status: "done", done_count: 300 }));
    });
  });
}
