// The handover completes only once its answer was written whole: HEAD never hands over, clients that go
// away at any moment leave the rows for the next read, and racing reads give the rows to exactly one.
import { beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { type Departure, readPartThenReset, requestAndLeave } from "../support/hostile-clients.js";
import { bigRowCount, schema, useJobsApi, waitFor, widgetRows } from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`handover delivery on ${dialectTitle(dialect)}`, () => {
    const { server: running, videoWithCaptions, submit, settledByList } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });

    /** Settled one-video jobs, each with its video id. */
    async function settledJobs(key: string, count: number, extra = "") {
      const jobs = [];
      for (let i = 0; i < count; i++) {
        const videoId = videoWithCaptions(extra);
        const job = await submit(key, { videos: [videoId], schema });
        expect(job.status, job.text).toBe(202);
        jobs.push({ jobId: job.body.job_id as string, videoId });
      }
      for (const { jobId } of jobs) await settledByList(key, jobId);
      return jobs;
    }

    async function settledJob(key: string, extra = "") {
      const [job] = await settledJobs(key, 1, extra);
      if (!job) throw new Error("no job was submitted");
      return job;
    }

    /** Reads until a read carries the rows (a claim being settled answers `rows: null` meanwhile). */
    function readUntilRows(key: string, jobId: string, after = "") {
      return waitFor(
        `job ${jobId}'s rows to be received ${after}`,
        async () => {
          const read = await server.call("GET", `/v1/${jobId}`, { key });
          expect(read.status, read.text).toBe(200);
          return read.body.results[0].rows === null ? undefined : read;
        },
        10_000,
      );
    }

    async function storedRows(jobId: string) {
      return server.app.store.db
        .selectFrom("videos")
        .select(["rows", "submitted_url"])
        .where("job_id", "=", jobId)
        .execute();
    }

    it("HEAD answers a read's status and headers without a body, and hands nothing over", async () => {
      const { key } = await server.workspace();
      const { jobId, videoId } = await settledJob(key);
      for (let i = 0; i < 3; i++) {
        const head = await server.call("HEAD", `/v1/${jobId}`, { key });
        expect(head.status).toBe(200);
        expect(head.text).toBe("");
        expect(head.headers.get("content-type")).toMatch(/^application\/json/);
        expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
        expect(head.headers.get("x-request-id")).toMatch(/^req_/);
      }
      expect((await storedRows(jobId))[0]?.rows).not.toBeNull();

      const first = await server.call("GET", `/v1/${jobId}`, { key });
      expect(first.body.results[0].rows).toEqual(widgetRows(videoId));

      const unknown = await server.call("HEAD", "/v1/job_doesnotexist", { key });
      expect(unknown.status).toBe(404);
      expect(unknown.text).toBe("");
      expect((await server.call("HEAD", `/v1/${jobId}`)).status).toBe(401);
    });

    it("HEAD on every GET route answers as the GET does, with no body, and changes nothing the GET would not", async () => {
      const { key } = await server.workspace();
      const { jobId } = await settledJob(key);
      const document = (await server.call("GET", "/v1/openapi.json")).body;
      expect(document.paths["/v1/{job_id}"].head.operationId).toBe("checkJob");
      const paths = Object.entries(document.paths as Record<string, Record<string, unknown>>)
        .filter(([, operations]) => "get" in operations)
        .map(([path]) => path.replace("{job_id}", jobId).replace(/\{[a-z_]+\}/g, "unknown_id"));
      expect(paths.length).toBeGreaterThan(5);
      for (const path of paths) {
        const head = await server.call("HEAD", path, { key });
        expect(head.text, path).toBe("");
        expect([200, 404], path).toContain(head.status);
      }
      expect((await storedRows(jobId))[0]?.rows).not.toBeNull();
      expect((await server.call("GET", `/v1/${jobId}`, { key })).body.results[0].rows).not.toBeNull();
    });

    const departures: Departure[] = ["reset", "close", "half-close"];
    const delaysMs = [0, 2, 5];
    const jobsPerCase = 3;

    it(`keeps the rows of every job whose reader resets, closes or half-closes 0, 2 or 5 ms after asking (${jobsPerCase} jobs each)`, async () => {
      const { key } = await server.workspace();
      const cases = departures.flatMap((how) => delaysMs.map((afterMs) => ({ how, afterMs })));
      const jobs = await settledJobs(key, cases.length * jobsPerCase);
      await Promise.all(
        jobs.map(async ({ jobId, videoId }, i) => {
          const { how, afterMs } = cases[i % cases.length] as { how: Departure; afterMs: number };
          await requestAndLeave(server.url, `/v1/${jobId}`, key, how, afterMs);
          const read = await readUntilRows(key, jobId, `after a ${how} ${afterMs} ms after the request`);
          expect(read.body.results[0].rows).toEqual(widgetRows(videoId));
        }),
      );
      // Each job was handed over exactly once: by the read that received it.
      for (const { jobId } of jobs) {
        await waitFor(`job ${jobId}'s rows to be deleted`, async () =>
          (await storedRows(jobId))[0]?.rows === null ? true : undefined,
        );
        expect((await server.call("GET", `/v1/${jobId}`, { key })).body.results[0].rows).toBeNull();
      }
    });

    it("keeps the rows when the client reads part of a multi-megabyte answer and resets", async () => {
      const { key } = await server.workspace();
      const { jobId } = await settledJob(key, "BIGROWS");
      const { start, read } = await readPartThenReset(server.url, `/v1/${jobId}`, key, 256 * 1024);
      expect(start).toMatch(/^HTTP\/1\.1 200 /);
      expect(read).toBeLessThan(2_000_000);

      const delivered = await readUntilRows(key, jobId);
      expect(delivered.body.results[0].rows.results).toHaveLength(bigRowCount);
      expect(delivered.body.results[0].usage.row_count).toBe(bigRowCount);
    });

    it("gives the rows to exactly one of many racing first reads", async () => {
      const { key } = await server.workspace();
      const jobs = await settledJobs(key, 3);
      for (const { jobId, videoId } of jobs) {
        const reads = await Promise.all(
          Array.from({ length: 12 }, () => server.call("GET", `/v1/${jobId}`, { key })),
        );
        for (const read of reads) expect(read.status).toBe(200);
        const withRows = reads.filter((read) => read.body.results[0].rows !== null);
        expect(withRows).toHaveLength(1);
        expect(withRows[0]?.body.results[0].rows).toEqual(widgetRows(videoId));
        await waitFor(`job ${jobId}'s rows to be deleted`, async () =>
          (await storedRows(jobId))[0]?.rows === null ? true : undefined,
        );
        expect((await server.call("GET", `/v1/${jobId}`, { key })).body.results[0].rows).toBeNull();
      }
    });
  });
}
