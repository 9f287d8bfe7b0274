// Stopping a worker process with SIGTERM mid-video: it exits 0, finishing what it can within its grace
// period and handing back what it cannot, so that another worker settles it without waiting for the lease.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBooks, settledBooksProblems } from "../support/books.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { rowsReply } from "../support/fake-model.js";
import { defaultModelBehaviour, type PipelineServer } from "../support/pipeline.js";
import { killAllChildren } from "../support/processes.js";
import { waitUntil } from "../support/waiting.js";
import { startApiWithoutWorker, startWorkerFor, submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

// `vidrows worker` gives the videos in hand 10 s to finish after SIGTERM (Worker.stop's default grace).
const graceMs = 10_000;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `a worker stopped mid-video on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      beforeAll(async () => {
        server = await startApiWithoutWorker(dialect.name);
      });
      afterAll(async () => {
        await killAllChildren();
        await server?.close();
      });

      it("finishes a video that ends within its grace period, settles it, and exits 0", async () => {
        server.model.respondWith(() => ({ ...rowsReply([{ product: "slow", price: 2 }]), delayMs: 1500 }));
        const { workspaceId, key } = await server.workspace("pro");
        const [id] = videoIds("finish", 1) as [string];
        server.addCaptions(id, 30);
        const asked = server.model.requestCount;
        const worker = await startWorkerFor(server);
        const jobId = await submitJob(server, key, [id]);
        await waitUntil("the model to be asked", () => server.model.requestCount > asked, workWaitMs);

        worker.signal("SIGTERM");
        expect(await worker.exited(graceMs + 5000)).toEqual({ code: 0, signal: null });

        // Settled by the stopping worker itself, before it exited: no other worker runs.
        const video = await server.app.store.db
          .selectFrom("videos")
          .select(["status", "claims", "lease_owner"])
          .where("job_id", "=", jobId)
          .executeTakeFirstOrThrow();
        expect(video).toEqual({ status: "done", claims: 1, lease_owner: null });
        const settled = await server.waitForSettled(key, jobId, 5000);
        expect(settled.results[0].rows.results).toEqual([{ product: "slow", price: 2 }]);
        expect(settledBooksProblems(await readBooks(server.app.store, workspaceId), 10_000)).toEqual([]);
      });

      it("hands back a video it cannot finish in time, and another worker settles it at once", async () => {
        // The first request outlasts the grace period (the stopping worker abandons it); later ones answer.
        const first = server.model.requestCount + 1;
        server.model.respondWith((request) =>
          request.number === first ? { ...rowsReply([]), delayMs: 60_000 } : defaultModelBehaviour(request),
        );
        const { workspaceId, key } = await server.workspace("pro");
        const [id] = videoIds("handback", 1) as [string];
        server.addCaptions(id, 90);
        // A lease far longer than this test: only a released lease lets the successor in.
        const settings = { VIDROWS_VIDEO_LEASE_SECONDS: "600" };
        const stopping = await startWorkerFor(server, settings);
        const jobId = await submitJob(server, key, [id]);
        await waitUntil("the model to be asked", () => server.model.requestCount >= first, workWaitMs);

        const abandoned = server.model.abandonedCount;
        stopping.signal("SIGTERM");
        expect(await stopping.exited(graceMs + 5000)).toEqual({ code: 0, signal: null });
        const exitedAt = Date.now();

        const handedBack = await server.app.store.db
          .selectFrom("videos")
          .select(["status", "claims", "lease_expires_at"])
          .where("job_id", "=", jobId)
          .executeTakeFirstOrThrow();
        // It gave up the model request rather than leave it running behind it.
        expect(server.model.abandonedCount).toBe(abandoned + 1);
        expect(handedBack.status).toBe("processing");
        expect(handedBack.claims).toBe(1);
        expect(Number(handedBack.lease_expires_at)).toBeLessThan(exitedAt);
        expect((await readBooks(server.app.store, workspaceId)).charges).toEqual([]);

        const successor = await startWorkerFor(server, settings);
        const settled = await server.waitForSettled(key, jobId, workWaitMs);
        expect(settled.status).toBe("done");
        expect(settled.credits_charged).toBe(2);
        const books = await readBooks(server.app.store, workspaceId);
        expect(settledBooksProblems(books, 10_000)).toEqual([]);
        expect(books.charges.map((c) => c.amount)).toEqual([-2]);
        expect(books.videos.map((v) => v.claims)).toEqual([2]);
        await successor.stop();
        server.model.respondWith(defaultModelBehaviour);
      });
    },
  );
}
