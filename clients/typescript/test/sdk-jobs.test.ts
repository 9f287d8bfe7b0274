// The SDK's jobs methods against the real server (SQLite and PostgreSQL): submit, list, iterate, progress,
// wait without spending, take the rows once, and every error the jobs endpoints answer.
import { beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { hold, newVideoId, schema, useJobsApi, waitFor } from "../../../test/support/jobs-api.js";
import { startTestServer } from "../../../test/support/test-server.js";
import type { PipelineServer } from "../../../test/support/pipeline.js";
import type { JobListItem } from "../src/index.js";
import { clientFor, expectApiError } from "./client-support.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vr.jobs on ${dialectTitle(dialect)}`, () => {
    const { server: running, videoWithCaptions, emptyBalance } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });
    const client = (key: string) => clientFor(server.url, key);

    it("submits, waits without spending, then takes the rows once", async () => {
      const { key } = await server.workspace();
      const vr = client(key);
      const videos = [videoWithCaptions(), videoWithCaptions()];
      const created = await vr.jobs.submit({ videos, schema });
      expect(created).toMatchObject({ status: "processing", videos: 2, schema: "inline" });

      const seen: JobListItem[] = [];
      const settled = await vr.jobs.wait(created.job_id, {
        pollIntervalMs: 20,
        onProgress: (p) => seen.push(p),
      });
      expect(settled).toMatchObject({
        job_id: created.job_id,
        status: "done",
        counts: { done: 2, failed: 0 },
      });
      expect(seen.at(-1)).toEqual(settled);
      expect(await vr.jobs.progress(created.job_id)).toEqual(settled);

      const read = await vr.jobs.takeRows(created.job_id);
      if (read.results === null) throw new Error("a settled job has results");
      expect(read.results.map((v) => v.video_id).sort()).toEqual([...videos].sort());
      for (const video of read.results) {
        expect(video.status).toBe("done");
        expect(video.rows?.results).toEqual([{ product: "widget", price: 5 }]);
      }
      const again = await vr.jobs.takeRows(created.job_id);
      expect(again.results?.every((v) => v.rows === null)).toBe(true);
    });

    it("follows a job's videos before and after the handover, without taking the rows", async () => {
      const { key } = await server.workspace();
      const vr = client(key);
      const [found, missing] = [videoWithCaptions(), newVideoId()];
      const created = await vr.jobs.submit({ videos: [found, missing], schema });
      await vr.jobs.wait(created.job_id, { pollIntervalMs: 20 });
      const before = await vr.jobs.videos(created.job_id);
      expect(before.handed_over_at).toBeNull();
      expect(before.data.map((video) => [video.video_id, video.status])).toEqual([
        [found, "done"],
        [missing, "failed"],
      ]);
      const failed = before.data[1];
      if (failed?.status !== "failed") throw new Error("the video without captions fails");
      expect(failed.error.code).toBe("no_captions");

      const read = await vr.jobs.takeRows(created.job_id);
      expect(read.results?.[0]?.status === "done" && read.results[0].rows?.results).toHaveLength(1);
      const after = await waitFor("the handover to be recorded", async () => {
        const videos = await vr.jobs.videos(created.job_id);
        return videos.handed_over_at === null ? undefined : videos;
      });
      expect(after.data.map((video) => video.status)).toEqual(["done", "failed"]);
      await expectApiError(vr.jobs.videos("job_doesnotexist"), { code: "job_not_found", status: 404 });
    });

    it("reads a running job without spending anything", async () => {
      const { key } = await server.workspace();
      const vr = client(key);
      const held = hold();
      const created = await vr.jobs.submit({ videos: [videoWithCaptions(held.marker)], schema });
      const early = await vr.jobs.takeRows(created.job_id);
      expect(early).toMatchObject({ status: "processing", results: null });
      expect((await vr.jobs.progress(created.job_id)).status).toBe("processing");
      held.release();
      await vr.jobs.wait(created.job_id, { pollIntervalMs: 20 });
      const read = await vr.jobs.takeRows(created.job_id);
      expect(read.results?.[0]?.rows?.results).toEqual([{ product: "held", price: 1 }]);
    });

    it("replays a submission with the same idempotency key, and refuses the key with another body", async () => {
      const { key } = await server.workspace();
      const vr = client(key);
      const body = { videos: [videoWithCaptions()], schema };
      const first = await vr.jobs.submit(body, { idempotencyKey: "order-1" });
      const second = await vr.jobs.submit(body, { idempotencyKey: "order-1" });
      expect(second.job_id).toBe(first.job_id);
      expect((await vr.jobs.list()).pagination.total).toBe(1);
      await expectApiError(vr.jobs.submit({ ...body, language: "en" }, { idempotencyKey: "order-1" }), {
        code: "idempotency_conflict",
        status: 409,
      });
      // Without a key of its own, each submission gets a fresh generated one: two jobs.
      await vr.jobs.submit(body);
      await vr.jobs.submit(body);
      expect((await vr.jobs.list()).pagination.total).toBe(3);
    });

    it("lists one page with filters and iterates over every page", async () => {
      const { key } = await server.workspace();
      const vr = client(key);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await vr.jobs.submit({ videos: [videoWithCaptions()], schema })).job_id);
      for (const id of ids) await vr.jobs.wait(id, { pollIntervalMs: 20 });
      const page = await vr.jobs.list({ limit: 2, offset: 1, status: "succeeded" });
      expect(page.pagination).toEqual({ total: 3, limit: 2, offset: 1, has_more: false });
      expect(page.data.map((j) => j.job_id)).toEqual([ids[1], ids[0]]);
      expect((await vr.jobs.list({ search: ids[2] })).data.map((j) => j.job_id)).toEqual([ids[2]]);
      const all: string[] = [];
      for await (const job of vr.jobs.iterate({ status: "succeeded" })) all.push(job.job_id);
      expect(all).toEqual([...ids].reverse());
      expect((await vr.jobs.list({ status: "failed" })).data).toEqual([]);
    });

    it("cancels a running job, and answers job_settled once it has settled", async () => {
      const { key } = await server.workspace();
      const vr = client(key);
      const held = hold();
      const created = await vr.jobs.submit({ videos: [videoWithCaptions(held.marker)], schema });
      // The one video is in flight (held by the model) when the cancel arrives; this server's worker
      // then abandons it at once, and the job settles with it failed as cancelled.
      await waitFor("the video in flight", async () => {
        const progress = await vr.jobs.progress(created.job_id);
        return progress.counts.processing === 1 ? progress : undefined;
      });
      const cancelled = await vr.jobs.cancel(created.job_id);
      expect(cancelled).toEqual({
        job_id: created.job_id,
        status: "processing",
        videos: 1,
        counts: { queued: 0, processing: 1, done: 0, failed: 0 },
        results: null,
      });
      held.release();
      await vr.jobs.wait(created.job_id, { pollIntervalMs: 20 });
      await expectApiError(vr.jobs.cancel(created.job_id), {
        code: "job_settled",
        status: 409,
        param: "job_id",
      });
      await expectApiError(vr.jobs.cancel("job_0000000000000000000000"), {
        code: "job_not_found",
        status: 404,
      });
    });

    it("answers the jobs endpoints' errors as VidrowsErrors", async () => {
      const { key, workspaceId } = await server.workspace();
      const vr = client(key);
      await expectApiError(vr.jobs.takeRows("job_0000000000000000000000"), {
        code: "job_not_found",
        status: 404,
      });
      const missing = await vr.jobs.progress("job_0000000000000000000000").catch((e: unknown) => e);
      expect(missing).toMatchObject({ code: "job_not_found", status: 404 });
      // An id the list's search cannot hold is not found without asking the server.
      expect(await vr.jobs.progress("job 1!").catch((e: unknown) => e)).toMatchObject({
        code: "job_not_found",
      });
      await expectApiError(vr.jobs.submit({ videos: ["not a video"], schema }), {
        code: "invalid_request",
        status: 400,
        param: "videos[0]",
      });
      await expectApiError(vr.jobs.list({ limit: 101 }), {
        code: "invalid_request",
        status: 400,
        param: "limit",
      });
      await expectApiError(vr.jobs.submit({ videos: [newVideoId()], schema_id: "sch_missing" }), {
        code: "schema_not_found",
        status: 404,
        param: "schema_id",
      });
      const saved = await vr.schemas.create({ name: "jobs-errors", schema });
      await expectApiError(
        vr.jobs.submit({ videos: [newVideoId()], schema_id: saved.id, schema_version: 9 }),
        {
          code: "schema_version_not_found",
          status: 404,
        },
      );
      const tooMany = Array.from({ length: 11 }, () => newVideoId());
      const free = await server.workspace("free");
      await expectApiError(client(free.key).jobs.submit({ videos: tooMany, schema }), {
        code: "plan_limit",
        status: 403,
      });
      await expectApiError(vr.jobs.submit({ videos: Array(600).fill("x".repeat(2048)), schema }), {
        code: "payload_too_large",
        status: 413,
      });
      await vr.usage.setHardCap(0);
      await expectApiError(vr.jobs.submit({ videos: [newVideoId()], schema }), {
        code: "hard_cap_reached",
        status: 402,
      });
      await vr.usage.setHardCap(null);
      await emptyBalance(workspaceId);
      await expectApiError(vr.jobs.submit({ videos: [newVideoId()], schema }), {
        code: "insufficient_credits",
        status: 402,
      });
      await expectApiError(clientFor(server.url, "vr_live_" + "x".repeat(32)).jobs.list(), {
        code: "unauthorized",
        status: 401,
      });
    });

    it("reports extraction_unavailable from a server without a language model", async () => {
      const bare = await startTestServer(dialect.name, {}, { work: false });
      try {
        const { key } = await bare.workspace();
        await expectApiError(clientFor(bare.url, key).jobs.submit({ videos: [newVideoId()], schema }), {
          code: "extraction_unavailable",
          status: 503,
        });
      } finally {
        await bare.close();
      }
    });
  });
}
