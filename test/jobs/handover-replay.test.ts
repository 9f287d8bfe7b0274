// No reader can replay the handover: a reset after a whole answer puts the rows back once per job, and a
// read while another read's answer holds the rows says so (`rows_held`), unlike a read after the handover.
import { beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { readWholeThenReset, stallAfterFirstChunk } from "../support/hostile-clients.js";
import {
  bigRowCount,
  handoverRecorded,
  schema,
  useJobsApi,
  waitFor,
  widgetRows,
} from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`the handover's replays on ${dialectTitle(dialect)}`, () => {
    const { server: running, videoWithCaptions, submit, settledByList } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });

    async function settledJob(key: string, extra = "") {
      const videoId = videoWithCaptions(extra);
      const job = await submit(key, { videos: [videoId], schema });
      expect(job.status, job.text).toBe(202);
      const jobId = job.body.job_id as string;
      await settledByList(key, jobId);
      return { jobId, videoId };
    }

    async function handoverColumns(jobId: string) {
      return server.app.store.db
        .selectFrom("jobs")
        .select(["handed_over_at", "handover_claim", "handover_returned_at"])
        .where("id", "=", jobId)
        .executeTakeFirstOrThrow();
    }

    it("puts the rows back after one read-and-reset only: the second whole answer is final, however the reader leaves", async () => {
      const { key } = await server.workspace();
      const { jobId, videoId } = await settledJob(key);
      const received: unknown[] = [];
      let handedOver = false;
      // Every round reads the whole answer and resets at once. A read while the last one's reset is
      // being judged finds the rows held; once handed over, every read finds them gone.
      for (let round = 0; round < 40 && !handedOver; round++) {
        const read = await readWholeThenReset(server.url, `/v1/${jobId}`, key);
        expect(read.status).toBe(200);
        const rows = read.body.results[0].rows;
        if (rows !== null) {
          expect(read.body.rows_held).toBe(false);
          received.push(rows);
          continue;
        }
        if (read.body.rows_held === true) {
          await waitFor("the claim of the last read to settle", async () =>
            (await handoverColumns(jobId)).handover_claim === null ? true : undefined,
          );
          continue;
        }
        handedOver = true;
      }
      expect(handedOver).toBe(true);
      expect(received).toEqual([widgetRows(videoId), widgetRows(videoId)]);

      const columns = await handoverColumns(jobId);
      expect(columns.handed_over_at).not.toBeNull();
      expect(columns.handover_returned_at).not.toBeNull();
      expect(columns.handover_returned_at as number).toBeLessThanOrEqual(columns.handed_over_at as number);
      const stored = await server.app.store.db
        .selectFrom("videos")
        .select(["rows", "submitted_url"])
        .where("job_id", "=", jobId)
        .execute();
      expect(stored).toEqual([{ rows: null, submitted_url: null }]);
      const progress = await server.call("GET", `/v1/${jobId}/videos`, { key });
      expect(progress.body.handed_over_at).not.toBeNull();
      const after = await server.call("GET", `/v1/${jobId}`, { key });
      expect(after.body.results[0].rows).toBeNull();
      expect(after.body.rows_held).toBe(false);
    });

    it("answers rows_held while another read's answer holds the rows, and gives them to the next read once it fails", async () => {
      const { key } = await server.workspace();
      const { jobId } = await settledJob(key, "BIGROWS");
      const slow = await stallAfterFirstChunk(server.url, `/v1/${jobId}`, key);
      expect(slow.start).toMatch(/^HTTP\/1\.1 200 /);

      const during = await server.call("GET", `/v1/${jobId}`, { key });
      expect(during.status).toBe(200);
      expect(during.body.status).toBe("done");
      expect(during.body.rows_held).toBe(true);
      expect(during.body.results[0].rows).toBeNull();
      expect(during.body.results[0].usage.row_count).toBe(bigRowCount);
      const progress = await server.call("GET", `/v1/${jobId}/videos`, { key });
      expect(progress.body.handed_over_at).toBeNull();

      // The held answer never got out whole: its reset does not count, and the next read is not final.
      slow.close();
      const delivered = await waitFor(
        "the rows of the stalled answer to be read again",
        async () => {
          const read = await server.call("GET", `/v1/${jobId}`, { key });
          expect(read.status, read.text).toBe(200);
          if (read.body.results[0].rows === null) {
            expect(read.body.rows_held).toBe(true);
            return undefined;
          }
          return read;
        },
        workWaitMs,
      );
      expect(delivered.body.rows_held).toBe(false);
      expect(delivered.body.results[0].rows.results).toHaveLength(bigRowCount);
      await handoverRecorded(server.app.store.db, jobId);
      expect((await handoverColumns(jobId)).handover_returned_at).toBeNull();

      const after = await server.call("GET", `/v1/${jobId}`, { key });
      expect(after.body.results[0].rows).toBeNull();
      expect(after.body.rows_held).toBe(false);
    });

    it("documents rows_held in the OpenAPI document as part of every settled read", async () => {
      const document = (await server.call("GET", "/v1/openapi.json")).body;
      const settled = document.components.schemas.SettledJob;
      expect(settled.required).toContain("rows_held");
      expect(settled.properties.rows_held.type).toBe("boolean");
      expect(settled.properties.rows_held.description).toMatch(/read again in a moment/);
    });
  });
}
