// GET /v1/{job_id} over HTTP: a running and a settled job as their owner reads them, and who may read a job.
import { beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { hold, newVideoId, schema, useJobsApi } from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`reading a job on ${dialectTitle(dialect)}`, () => {
    const { server: running, submit, videoWithCaptions, settledByList } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });

    describe("GET /v1/{job_id}", () => {
      it("answers a running job with its counts and results: null, and the settled job with its results", async () => {
        const { key } = await server.workspace();
        const { marker, release } = hold();
        const job = await submit(key, { videos: [videoWithCaptions(marker)], schema });
        const jobId: string = job.body.job_id;
        const running = await server.call("GET", `/v1/${jobId}`, { key });
        expect(running.status, running.text).toBe(200);
        expect(Object.keys(running.body).sort()).toEqual(["counts", "job_id", "results", "status", "videos"]);
        expect(running.body).toMatchObject({ job_id: jobId, status: "processing", videos: 1, results: null });
        const { queued, processing, done, failed } = running.body.counts;
        expect(queued + processing + done + failed).toBe(1);
        release();
        await settledByList(key, jobId);
        const settled = await server.call("GET", `/v1/${jobId}`, { key });
        expect(settled.status, settled.text).toBe(200);
        expect(settled.body).toMatchObject({
          job_id: jobId,
          status: "done",
          videos: 1,
          counts: { queued: 0, processing: 0, done: 1, failed: 0 },
        });
        expect(settled.body.credits_charged).toBeGreaterThan(0);
        expect(settled.body.results).toHaveLength(1);
        expect(settled.body.results[0].status).toBe("done");
      });

      it("answers 404 job_not_found for an unknown id and for another workspace's job", async () => {
        const mine = await server.workspace();
        const theirs = await server.workspace();
        const job = await submit(theirs.key, { videos: [newVideoId()], schema });
        for (const id of ["job_doesnotexist", job.body.job_id]) {
          const answer = await server.call("GET", `/v1/${id}`, { key: mine.key });
          expect(answer.status, answer.text).toBe(404);
          expect(answer.body.error.code).toBe("job_not_found");
        }
        // The owner still sees it.
        expect((await server.call("GET", `/v1/${job.body.job_id}`, { key: theirs.key })).status).toBe(200);
      });
    });
  });
}
