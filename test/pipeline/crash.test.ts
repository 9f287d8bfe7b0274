// A worker process killed (SIGKILL) mid-video: another takes the video over once the lease runs out, and
// the video settles once and is charged once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { dialects, dialectTitle } from "../support/databases.js";
import type { PipelineServer } from "../support/pipeline.js";
import { killAllChildren } from "../support/processes.js";
import { waitUntil } from "../support/waiting.js";
import { startApiWithoutWorker, startWorkerFor, submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `a worker killed mid-video on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      beforeAll(async () => {
        // A slow model, so that the worker is surely inside a model request when it is killed.
        server = await startApiWithoutWorker(dialect.name, { modelDelayMs: 3000 });
      });
      afterAll(async () => {
        await killAllChildren();
        await server?.close();
      });

      it("loses nothing: a second worker settles each video once and charges it once", async () => {
        const { workspaceId, key } = await server.workspace("pro");
        const [long, short] = videoIds("crash", 2) as [string, string];
        server.addCaptions(long, 90); // 2 credits
        server.addCaptions(short, 30); // 1 credit
        const jobId = await submitJob(server, key, [long, short]);
        const lease = { VIDROWS_VIDEO_LEASE_SECONDS: "2" };

        const doomed = await startWorkerFor(server, lease);
        await waitUntil(
          "the model to be asked about both videos",
          () => server.model.requestCount >= 2,
          workWaitMs,
        );
        doomed.signal("SIGKILL");
        expect(await doomed.exited(workWaitMs)).toEqual({ code: null, signal: "SIGKILL" });

        // The dead worker still holds both videos, and nothing has been charged.
        const held = await server.app.store.db
          .selectFrom("videos")
          .select(["status", "lease_owner", "claims"])
          .where("job_id", "=", jobId)
          .execute();
        expect(held).toEqual([
          { status: "processing", lease_owner: doomed.workerId, claims: 1 },
          { status: "processing", lease_owner: doomed.workerId, claims: 1 },
        ]);
        expect((await readBooks(server.app.store, workspaceId)).charges).toEqual([]);

        const successor = await startWorkerFor(server, lease);
        const settled = await server.waitForSettled(key, jobId, workWaitMs);
        expect(settled.status).toBe("done");
        expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 2, failed: 0 });
        expect(settled.credits_charged).toBe(3);
        expect(settled.results.map((r: any) => [r.video_id, r.status, r.usage.credits_charged])).toEqual([
          [long, "done", 2],
          [short, "done", 1],
        ]);

        const books = await readBooks(server.app.store, workspaceId);
        expect(settledBooksProblems(books, 10_000)).toEqual([]);
        expect(books.charges.map((c) => c.amount).sort()).toEqual([-1, -2]);
        expect(books.workspace.balance).toBe(10_000 - 3);
        expect(books.workspace.jobs_done).toBe(1);
        for (const video of books.videos) expect(video.claims).toBeGreaterThanOrEqual(2);
        // The killed worker's requests were cut off, never answered.
        expect(server.model.abandonedCount).toBeGreaterThanOrEqual(2);
        await successor.stop();
      });
    },
  );
}
