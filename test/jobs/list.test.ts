// GET /v1 over HTTP: the fields of the list, its filters, search and paging, and its refusals.
import { beforeAll, describe, expect, it } from "vitest";
import { admitAllWaitingJobs } from "../support/admissions.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { hold, newVideoId, pause, schema, timestamp, useJobsApi } from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`listing jobs on ${dialectTitle(dialect)}`, () => {
    const { server: running, videoWithCaptions, submit, settledByList } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });

    describe("GET /v1", () => {
      it("lists exactly the documented fields, newest first, results null while running and [] once settled", async () => {
        const { key } = await server.workspace();
        const held = hold();
        try {
          const done = await submit(key, { videos: [videoWithCaptions()], schema });
          await settledByList(key, done.body.job_id);
          await pause(2); // ids are ordered by the millisecond they were made in
          const running = await submit(key, { videos: [videoWithCaptions(held.marker)], schema });
          const list = await server.call("GET", "/v1", { key });
          expect(list.status).toBe(200);
          expect(Object.keys(list.body).sort()).toEqual(["data", "pagination"]);
          expect(list.body.data.map((j: any) => j.job_id)).toEqual([running.body.job_id, done.body.job_id]);
          for (const item of list.body.data) {
            expect(Object.keys(item).sort()).toEqual([
              "cancelled_at",
              "completed_at",
              "counts",
              "created_at",
              "credits_charged",
              "handed_over_at",
              "job_id",
              "results",
              "schema",
              "status",
              "videos",
            ]);
            expect(item.created_at).toMatch(timestamp);
            expect(item.schema).toBe("inline");
            expect(item.videos).toBe(1);
            expect(item.cancelled_at).toBeNull();
          }
          const [runningItem, doneItem] = list.body.data;
          expect(runningItem.status).toBe("processing");
          expect(runningItem.results).toBeNull();
          expect(runningItem.completed_at).toBeNull();
          expect(runningItem.credits_charged).toBe(0);
          expect(doneItem.status).toBe("done");
          expect(doneItem.results).toEqual([]);
          expect(doneItem.completed_at).toMatch(timestamp);
          expect(doneItem.credits_charged).toBe(1);
          expect(doneItem.counts).toEqual({ queued: 0, processing: 0, done: 1, failed: 0 });
          // The list never carries rows, although the settled job's rows are still waiting to be read.
          expect(list.text).not.toContain("widget");
          expect(list.text).not.toContain('"rows"');
        } finally {
          held.release();
        }
      });

      it("filters running, succeeded and failed (any failed video), and pages them with totals", async () => {
        const { key } = await server.workspace();
        const held = hold();
        try {
          const done = await submit(key, { videos: [videoWithCaptions()], schema });
          await pause(2);
          const failed = await submit(key, { videos: [newVideoId()], schema });
          await pause(2);
          const partial = await submit(key, { videos: [videoWithCaptions(), newVideoId()], schema });
          for (const job of [done, failed, partial]) await settledByList(key, job.body.job_id);
          await pause(2);
          const running = await submit(key, { videos: [videoWithCaptions(held.marker)], schema });

          const page = async (query: string) => {
            const answer = await server.call("GET", `/v1?${query}`, { key });
            expect(answer.status, answer.text).toBe(200);
            return {
              ids: answer.body.data.map((j: any) => j.job_id),
              statuses: answer.body.data.map((j: any) => j.status),
              pagination: answer.body.pagination,
            };
          };
          const all = await page("");
          expect(all.ids).toEqual([running, partial, failed, done].map((j) => j.body.job_id));
          expect(all.statuses).toEqual(["processing", "partial", "failed", "done"]);
          expect(all.pagination).toEqual({ total: 4, limit: 25, offset: 0, has_more: false });

          const runningOnly = await page("status=running");
          expect(runningOnly.ids).toEqual([running.body.job_id]);
          expect(runningOnly.pagination.total).toBe(1);
          const succeeded = await page("status=succeeded");
          expect(succeeded.ids).toEqual([done.body.job_id]);
          expect(succeeded.pagination.total).toBe(1);
          const withFailures = await page("status=failed");
          expect(withFailures.ids).toEqual([partial.body.job_id, failed.body.job_id]);
          expect(withFailures.pagination).toEqual({ total: 2, limit: 25, offset: 0, has_more: false });
          const secondFailure = await page("status=failed&limit=1&offset=1");
          expect(secondFailure.ids).toEqual([failed.body.job_id]);
          expect(secondFailure.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
          const firstFailure = await page("status=failed&limit=1");
          expect(firstFailure.pagination.has_more).toBe(true);

          const refused = await server.call("GET", "/v1?status=done", { key });
          expect(refused.status).toBe(400);
          expect(refused.body.error.param).toBe("status");
        } finally {
          held.release();
        }
      });

      it("searches by the start of a job id, a vid_ id and a YouTube video id", async () => {
        const { key } = await server.workspace();
        const target = newVideoId();
        const other = newVideoId();
        const job = await submit(key, { videos: [newVideoId(), target], schema });
        await pause(2);
        const decoy = await submit(key, { videos: [other], schema });
        const jobId: string = job.body.job_id;
        // The videos have `vid_` ids once admitted, which the worker may not have done yet.
        await admitAllWaitingJobs(server.app.store);
        const video = await server.app.store.db
          .selectFrom("videos")
          .select("id")
          .where("job_id", "=", jobId)
          .where("platform_video_id", "=", target)
          .executeTakeFirstOrThrow();
        expect(video.id).toMatch(/^vid_/);

        const search = async (term: string) => {
          const answer = await server.call("GET", `/v1?search=${encodeURIComponent(term)}`, { key });
          expect(answer.status, answer.text).toBe(200);
          return answer.body;
        };
        for (const term of [
          jobId,
          jobId.slice(0, 20),
          video.id,
          video.id.slice(0, 20),
          target,
          target.slice(0, 7),
        ]) {
          const found = await search(term);
          expect(
            found.data.map((j: any) => j.job_id),
            term,
          ).toEqual([jobId]);
          expect(found.pagination, term).toEqual({ total: 1, limit: 25, offset: 0, has_more: false });
        }
        // "job_" and "vid_" begin every id: both jobs match, newest first.
        expect((await search("job_")).data.map((j: any) => j.job_id)).toEqual([decoy.body.job_id, jobId]);
        expect((await search("vid_")).pagination.total).toBe(2);
        const none = await search("job_zzzzzzzzzz");
        expect(none).toEqual({ data: [], pagination: { total: 0, limit: 25, offset: 0, has_more: false } });
        // A prefix is a prefix: the middle of an id matches nothing.
        expect((await search(target.slice(2, 9))).data).toEqual([]);
        const bad = await server.call("GET", "/v1?search=a%20b", { key });
        expect(bad.status).toBe(400);
        expect(bad.body.error.param).toBe("search");
      });

      it("pages 26 jobs: default limit 25, offsets and has_more right at the edges", async () => {
        const { key } = await server.workspace();
        const ids: string[] = [];
        for (let i = 0; i < 26; i++) {
          const answer = await submit(key, { videos: [newVideoId()], schema });
          expect(answer.status, answer.text).toBe(202);
          ids.unshift(answer.body.job_id);
          await pause(2);
        }
        const page = async (query: string) => {
          const answer = await server.call("GET", `/v1${query}`, { key });
          expect(answer.status, answer.text).toBe(200);
          return { ids: answer.body.data.map((j: any) => j.job_id), pagination: answer.body.pagination };
        };
        const first = await page("");
        expect(first.ids).toEqual(ids.slice(0, 25));
        expect(first.pagination).toEqual({ total: 26, limit: 25, offset: 0, has_more: true });
        const rest = await page("?offset=25");
        expect(rest.ids).toEqual(ids.slice(25));
        expect(rest.pagination).toEqual({ total: 26, limit: 25, offset: 25, has_more: false });
        expect((await page("?limit=26")).pagination.has_more).toBe(false);
        expect((await page("?limit=26")).ids).toEqual(ids);
        expect((await page("?limit=100")).ids).toEqual(ids);
        expect((await page("?limit=1")).ids).toEqual(ids.slice(0, 1));
        expect((await page("?limit=1&offset=25")).ids).toEqual(ids.slice(25));
        expect((await page("?limit=1&offset=24")).pagination.has_more).toBe(true);
        expect((await page("?limit=10&offset=10")).ids).toEqual(ids.slice(10, 20));
        const past = await page("?offset=26");
        expect(past.ids).toEqual([]);
        expect(past.pagination).toEqual({ total: 26, limit: 25, offset: 26, has_more: false });
        expect((await page("?offset=1000")).pagination).toEqual({
          total: 26,
          limit: 25,
          offset: 1000,
          has_more: false,
        });
      });

      it("refuses limits and offsets out of range, and unknown parameters, with 400 naming them", async () => {
        const { key } = await server.workspace();
        const cases: [string, string][] = [
          ["limit=0", "limit"],
          ["limit=101", "limit"],
          ["limit=-1", "limit"],
          ["limit=1.5", "limit"],
          ["limit=abc", "limit"],
          ["limit=", "limit"],
          ["offset=-1", "offset"],
          ["offset=1.5", "offset"],
          ["offset=abc", "offset"],
          ["page=2", "page"],
          ["statuss=running", "statuss"],
        ];
        for (const [query, param] of cases) {
          const answer = await server.call("GET", `/v1?${query}`, { key });
          expect(answer.status, `${query}: ${answer.text}`).toBe(400);
          expect(answer.body.error.code).toBe("invalid_request");
          expect(answer.body.error.param, query).toBe(param);
        }
        expect((await server.call("GET", "/v1?limit=100", { key })).status).toBe(200);
        expect((await server.call("GET", "/v1?limit=1", { key })).status).toBe(200);
      });

      it("never lists another workspace's jobs, by any filter or search", async () => {
        const mine = await server.workspace();
        const theirs = await server.workspace();
        const video = newVideoId();
        const job = await submit(theirs.key, { videos: [video], schema });
        await settledByList(theirs.key, job.body.job_id);
        for (const query of ["", "?status=failed", `?search=${job.body.job_id}`, `?search=${video}`]) {
          const answer = await server.call("GET", `/v1${query}`, { key: mine.key });
          expect(answer.status).toBe(200);
          expect(answer.body.data, query).toEqual([]);
          expect(answer.body.pagination.total, query).toBe(0);
        }
      });
    });
  });
}
