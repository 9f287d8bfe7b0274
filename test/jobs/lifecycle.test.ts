// Jobs end to end: submission, the worker, settlement, credits, and the one-time handover of rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { rowsReply } from "../support/fake-model.js";
import { handoverRecorded } from "../support/jobs-api.js";
import { defaultModelBehaviour, type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { sleep } from "../../src/concurrency/sleep.js";

const schema = { columns: ["product", "price"] };

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`jobs on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    beforeAll(async () => {
      server = await startPipelineServer(dialect.name);
      server.addCaptions("aaaaaaaaaaa", 90); // 2 credits
      server.addCaptions("bbbbbbbbbbb", 30); // 1 credit
      server.addCaptions("ccccccccccc", 601); // 11 credits
    });
    afterAll(async () => {
      await server?.close();
    });

    it("runs a job to done, charges by duration, and hands the rows over once", async () => {
      const { key } = await server.workspace();
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: ["https://www.youtube.com/watch?v=aaaaaaaaaaa", "bbbbbbbbbbb"], schema },
      });
      expect(submitted.status).toBe(202);
      expect(Object.keys(submitted.body).sort()).toEqual([
        "counts",
        "created_at",
        "job_id",
        "schema",
        "status",
        "videos",
      ]);
      expect(submitted.body).toMatchObject({
        status: "processing",
        videos: 2,
        schema: "inline",
        counts: { queued: 2, processing: 0, done: 0, failed: 0 },
      });

      const settled = await server.waitForSettled(key, submitted.body.job_id);
      expect(Object.keys(settled).sort()).toEqual([
        "columns",
        "counts",
        "credits_charged",
        "job_id",
        "results",
        "rows_held",
        "status",
        "videos",
      ]);
      expect(settled.status).toBe("done");
      expect(settled.rows_held).toBe(false);
      expect(settled.columns).toEqual(["product", "price"]);
      expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 2, failed: 0 });
      expect(settled.credits_charged).toBe(3);
      expect(settled.results.map((r: any) => r.video_id)).toEqual(["aaaaaaaaaaa", "bbbbbbbbbbb"]);
      // A video's own id finds its job in the list's search, as the interface promises.
      const byVideo = await server.call("GET", `/v1?search=${settled.results[1].id}`, { key });
      expect(byVideo.body.data.map((j: any) => j.job_id)).toEqual([submitted.body.job_id]);
      for (const result of settled.results) {
        expect(Object.keys(result).sort()).toEqual(["id", "rows", "status", "usage", "video_id"]);
        expect(result.id).toMatch(/^vid_[0-9A-Za-z]+$/);
        expect(result.status).toBe("done");
        expect(result.rows.results.length).toBeGreaterThan(0);
        for (const row of result.rows.results) expect(Object.keys(row)).toEqual(["product", "price"]);
      }
      expect(settled.results[0].usage).toMatchObject({
        credits_charged: 2,
        duration_seconds: 90,
        chunk_count: 1,
      });
      expect(settled.results[1].usage).toMatchObject({ credits_charged: 1, duration_seconds: 30 });

      const again = await server.call("GET", `/v1/${submitted.body.job_id}`, { key });
      expect(again.body.status).toBe("done");
      expect(again.body.results.map((r: any) => r.rows)).toEqual([null, null]);
      expect(again.body.results[0].usage.credits_charged).toBe(2);

      const usage = await server.call("GET", "/v1/usage", { key });
      expect(usage.body.credits.balance).toBe(10000 - 3);
      expect(usage.body.credits.used_this_cycle).toBe(3);
      expect(usage.body.videos_processed).toBe(2);
      expect(usage.body.jobs).toEqual({ queued: 0, processing: 0, done: 1, failed: 0, total: 1 });
      expect(usage.body.daily.at(-1).credits).toBe(3);
    });

    it("fails a video without captions, charges nothing for it, and counts the failure", async () => {
      const { key } = await server.workspace();
      const template = { title: "the book's title", year: "the year it came out" };
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: ["nocaptions1"], schema: { template } },
      });
      const settled = await server.waitForSettled(key, submitted.body.job_id);
      expect(settled.status).toBe("failed");
      expect(settled.credits_charged).toBe(0);
      // No rows, yet the read names the columns they would have had.
      expect(settled.columns).toEqual(["title", "year"]);
      expect(settled.results).toEqual([
        {
          id: expect.stringMatching(/^vid_/),
          video_id: "nocaptions1",
          status: "failed",
          rows: null,
          error: { code: "no_captions", message: expect.any(String), retryable: false },
          credits_charged: 0,
        },
      ]);
      const usage = await server.call("GET", "/v1/usage", { key });
      expect(usage.body.failures_by_code).toEqual({ no_captions: 1 });
      expect(usage.body.credits.used_this_cycle).toBe(0);
      expect(usage.body.jobs.failed).toBe(1);
    });

    it("settles a mix as partial, charging only the done videos", async () => {
      const { key } = await server.workspace();
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: ["ccccccccccc", "https://youtu.be/nocaptions2"], schema },
      });
      const settled = await server.waitForSettled(key, submitted.body.job_id);
      expect(settled.status).toBe("partial");
      expect(settled.counts).toEqual({ queued: 0, processing: 0, done: 1, failed: 1 });
      expect(settled.credits_charged).toBe(11);
      expect(settled.results[1].error.code).toBe("no_captions");
    });

    it("gives exactly one of 50 concurrent first reads the rows, and deletes rows and URLs from storage", async () => {
      const { key } = await server.workspace();
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: ["https://m.youtube.com/watch?v=aaaaaaaaaaa"], schema },
      });
      const jobId = submitted.body.job_id;
      // Wait until settled without reading the job (a read would take the handover).
      const deadline = Date.now() + 20_000;
      for (;;) {
        const row = await server.app.store.db
          .selectFrom("jobs")
          .select("status")
          .where("id", "=", jobId)
          .executeTakeFirstOrThrow();
        if (row.status !== "processing") break;
        if (Date.now() > deadline) throw new Error("job did not settle");
        await sleep(50);
      }
      const reads = await Promise.all(
        Array.from({ length: 50 }, () => server.call("GET", `/v1/${jobId}`, { key })),
      );
      expect(reads.every((r) => r.status === 200)).toBe(true);
      const withRows = reads.filter((r) => r.body.results[0].rows !== null);
      expect(withRows).toHaveLength(1);
      await handoverRecorded(server.app.store.db, jobId);
      const stored = await server.app.store.db
        .selectFrom("videos")
        .select(["rows", "submitted_url"])
        .where("job_id", "=", jobId)
        .execute();
      expect(stored).toEqual([{ rows: null, submitted_url: null }]);
    });

    it("shows a running job with counts and results null, and hands nothing over", async () => {
      const { key } = await server.workspace();
      server.model.respondWith(() => ({ ...rowsReply([{ product: "slow", price: 1 }]), delayMs: 700 }));
      try {
        const submitted = await server.call("POST", "/v1", {
          key,
          body: { videos: ["bbbbbbbbbbb"], schema },
        });
        const running = await server.call("GET", `/v1/${submitted.body.job_id}`, { key });
        expect(running.body).toEqual({
          job_id: submitted.body.job_id,
          status: "processing",
          videos: 1,
          counts: expect.objectContaining({ done: 0, failed: 0 }),
          results: null,
        });
        const list = await server.call("GET", "/v1?status=running", { key });
        expect(list.body.data.map((j: any) => j.job_id)).toContain(submitted.body.job_id);
        const settled = await server.waitForSettled(key, submitted.body.job_id);
        expect(settled.results[0].rows.results[0]).toEqual({ product: "slow", price: 1 });
      } finally {
        server.model.respondWith(defaultModelBehaviour);
      }
    });
  });
}
