// GET /v1/{job_id}/videos over HTTP: each video's progress, cost and error, before and after the handover,
// without ever carrying rows or submitted URLs or taking anything.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs } from "../support/endpoints.js";
import {
  handoverRecorded,
  hold,
  newVideoId,
  schema,
  timestamp,
  useJobsApi,
  waitFor,
} from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`a job's videos on ${dialectTitle(dialect)}`, () => {
    const { server: running, submit, videoWithCaptions, settledByList } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });
    const videosOf = (key: string, jobId: string) => server.call("GET", `/v1/${jobId}/videos`, { key });

    it("follows a running job video by video in submission order, without its submitted URLs", async () => {
      const { key } = await server.workspace();
      const { marker, release } = hold();
      const held = videoWithCaptions(marker);
      const quick = videoWithCaptions();
      const url = `https://www.youtube.com/watch?v=${held}`;
      const job = await submit(key, { videos: [url, quick], schema });
      expect(job.status, job.text).toBe(202);
      const jobId: string = job.body.job_id;

      const first = await videosOf(key, jobId);
      expect(first.status, first.text).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual(["data", "handed_over_at"]);
      expect(first.body.handed_over_at).toBeNull();
      expect(first.body.data.map((video: any) => video.video_id)).toEqual([held, quick]);
      expect(first.text).not.toContain("youtube.com");

      // The quick video settles while the held one is in the model's hands.
      const settledQuick = await waitFor("the quick video to be done", async () => {
        const data = (await videosOf(key, jobId)).body.data;
        return data[1]?.status === "done" ? data : undefined;
      });
      expect(settledQuick[0]).toEqual({
        id: expect.stringMatching(/^vid_/),
        video_id: held,
        status: "processing",
      });
      expect(settledQuick[1]).toEqual({
        id: expect.stringMatching(/^vid_/),
        video_id: quick,
        status: "done",
        transcript: "captions",
        credits_charged: expect.any(Number),
        usage: { credits_charged: expect.any(Number), row_count: 1, duration_seconds: 30, chunk_count: 1 },
      });
      expect(settledQuick[1].credits_charged).toBeGreaterThan(0);
      expect(settledQuick[1].usage.credits_charged).toBe(settledQuick[1].credits_charged);
      release();
      await settledByList(key, jobId);
    });

    it("shows a failed video's code and message and leaves the rows for the one read that takes them", async () => {
      const { key } = await server.workspace();
      const done = videoWithCaptions();
      const missing = newVideoId(); // no captions: fails with no_captions
      const job = await submit(key, { videos: [done, missing], schema });
      const jobId: string = job.body.job_id;
      const listed = await settledByList(key, jobId);
      expect(listed.handed_over_at).toBeNull();

      // Reading the videos, by GET and HEAD, as often as wanted, takes nothing.
      for (let i = 0; i < 3; i++) {
        const videos = await videosOf(key, jobId);
        expect(videos.status, videos.text).toBe(200);
        expect(videos.body.handed_over_at).toBeNull();
        expect(videos.text).not.toContain('"rows"');
        expect(videos.body.data[1]).toEqual({
          id: expect.stringMatching(/^vid_/),
          video_id: missing,
          status: "failed",
          credits_charged: 0,
          error: { code: "no_captions", message: expect.stringMatching(/\S/), retryable: false },
        });
        const head = await server.call("HEAD", `/v1/${jobId}/videos`, { key });
        expect(head.status).toBe(200);
      }
      const read = await server.call("GET", `/v1/${jobId}`, { key });
      expect(read.body.results[0].rows.results).toHaveLength(1);

      // Once the handover completes, both the list and the videos say when.
      await handoverRecorded(server.app.store.db, jobId);
      const after = await videosOf(key, jobId);
      expect(after.body.handed_over_at).toMatch(timestamp);
      expect(after.body.data.map((video: any) => video.status)).toEqual(["done", "failed"]);
      const list = await server.call("GET", `/v1?search=${jobId}`, { key });
      expect(list.body.data[0].handed_over_at).toBe(after.body.handed_over_at);
    });

    it("answers 404 job_not_found for an unknown id and for another workspace's job", async () => {
      const mine = await server.workspace();
      const theirs = await server.workspace();
      const job = await submit(theirs.key, { videos: [newVideoId()], schema });
      for (const id of ["job_doesnotexist", job.body.job_id]) {
        const answer = await videosOf(mine.key, id);
        expect(answer.status, answer.text).toBe(404);
        expect(answer.body.error.code).toBe("job_not_found");
      }
    });
  });

  describe.skipIf(dialect.skipReason !== null)(
    `a job's videos before a worker takes it in, on ${dialectTitle(dialect)}`,
    () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
      });
      afterAll(async () => {
        await server?.close();
      });

      it("lists every video as queued, without an id yet and without the URLs as sent", async () => {
        const { key } = await server.workspace();
        const ids = [newVideoId(), newVideoId()];
        const job = await server.call("POST", "/v1", {
          key,
          body: { videos: [`https://youtu.be/${ids[0]}`, ids[1]], schema },
        });
        expect(job.status, job.text).toBe(202);
        const videos = await server.call("GET", `/v1/${job.body.job_id}/videos`, { key });
        expect(videos.status, videos.text).toBe(200);
        expect(videos.body).toEqual({
          data: ids.map((id) => ({ id: null, video_id: id, status: "queued" })),
          handed_over_at: null,
        });
        expect(videos.text).not.toContain("youtu.be");
      });
    },
  );
}
