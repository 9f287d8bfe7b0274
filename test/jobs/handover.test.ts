// The one-time handover of a job's rows over HTTP: listing never uses it up, an undelivered read gives it back.
import { beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import {
  bigRowCount,
  handoverRecorded,
  readStartAndHangUp,
  schema,
  useJobsApi,
  waitFor,
  widgetRows,
} from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`the handover on ${dialectTitle(dialect)}`, () => {
    const { server: running, videoWithCaptions, submit, settledByList } = useJobsApi(dialect.name);
    let server: PipelineServer;
    beforeAll(() => {
      server = running();
    });

    describe("GET /v1/{job_id}", () => {
      it("does not use the handover up when the settled job is listed: the first read still gets the rows", async () => {
        const { key } = await server.workspace();
        const videoId = videoWithCaptions();
        const job = await submit(key, { videos: [videoId], schema });
        const jobId: string = job.body.job_id;
        await settledByList(key, jobId);
        for (const query of ["", "?status=succeeded", `?search=${jobId}`]) {
          expect((await server.call("GET", `/v1${query}`, { key })).status).toBe(200);
        }
        const first = await server.call("GET", `/v1/${jobId}`, { key });
        expect(first.body.results[0].rows).toEqual(widgetRows(videoId));
        const second = await server.call("GET", `/v1/${jobId}`, { key });
        expect(second.body.results[0].rows).toBeNull();
      });

      it("hands over a job stored before data keys and sources (plaintext list, no key), each row sourced from the whole video", async () => {
        const { key } = await server.workspace();
        const videoId = videoWithCaptions();
        const job = await submit(key, { videos: [videoId], schema });
        const jobId: string = job.body.job_id;
        await settledByList(key, jobId);
        const db = server.app.store.db;
        // As migration 0008 found it: values in plain and no key for the job.
        await db.deleteFrom("job_keys").where("job_id", "=", jobId).execute();
        await db
          .updateTable("videos")
          .set({ rows: JSON.stringify([{ product: "from before keys", price: 1 }]), submitted_url: videoId })
          .where("job_id", "=", jobId)
          .execute();

        const first = await server.call("GET", `/v1/${jobId}`, { key });
        expect(first.body.results[0].usage.duration_seconds).toBe(30);
        expect(first.body.results[0].rows).toEqual({
          results: [{ product: "from before keys", price: 1 }],
          sources: [
            {
              start_seconds: 0,
              end_seconds: 30,
              url: `https://www.youtube.com/watch?v=${videoId}&t=0s`,
              quote: "",
              unverified: ["product", "price"],
            },
          ],
        });
        await handoverRecorded(db, jobId);
        const stored = await db
          .selectFrom("videos")
          .select(["rows", "submitted_url"])
          .where("job_id", "=", jobId)
          .execute();
        expect(stored).toEqual([{ rows: null, submitted_url: null }]);
      });

      it("stores a job's rows and submitted URL sealed on PostgreSQL, in plain on SQLite, and deletes its key at the handover", async () => {
        const { key } = await server.workspace();
        const videoId = videoWithCaptions();
        const job = await submit(key, { videos: [`https://www.youtube.com/watch?v=${videoId}`], schema });
        const jobId: string = job.body.job_id;
        await settledByList(key, jobId);
        const db = server.app.store.db;
        const [video] = await db
          .selectFrom("videos")
          .select(["rows", "submitted_url"])
          .where("job_id", "=", jobId)
          .execute();
        const keys = await db.selectFrom("job_keys").select("job_id").where("job_id", "=", jobId).execute();
        if (dialect.name === "postgres") {
          expect(video?.rows).toMatch(/^sealed1:/);
          expect(video?.submitted_url).toMatch(/^sealed1:/);
          expect(keys).toHaveLength(1);
        } else {
          expect(JSON.parse(video?.rows ?? "null")).toEqual({
            results: [{ product: "widget", price: 5 }],
            sources: [
              {
                start_seconds: 0,
                end_seconds: 30,
                quote: `We sell the widget for five dollars. ${videoId}`,
                unverified: [],
              },
            ],
          });
          expect(video?.submitted_url).toBe(`https://www.youtube.com/watch?v=${videoId}`);
          expect(keys).toHaveLength(0);
        }
        const first = await server.call("GET", `/v1/${jobId}`, { key });
        expect(first.body.results[0].rows).toEqual(widgetRows(videoId));
        await handoverRecorded(db, jobId);
        expect(
          await db.selectFrom("job_keys").select("job_id").where("job_id", "=", jobId).execute(),
        ).toEqual([]);
      });

      it("keeps the rows for the next read when the client goes away before the response is written", async () => {
        const { key } = await server.workspace();
        const job = await submit(key, { videos: [videoWithCaptions("BIGROWS")], schema });
        const jobId: string = job.body.job_id;
        const settled = await settledByList(key, jobId);
        expect(settled.status).toBe("done");

        const start = await readStartAndHangUp(server.url, `/v1/${jobId}`, key);
        // The server did answer (so that read took the handover) before the client left.
        expect(start).toMatch(/^HTTP\/1\.1 200 /);

        // The undelivered read is undone once the server notices; until then a read finds no rows.
        const delivered = await waitFor(
          "the rows to be handed over again",
          async () => {
            const read = await server.call("GET", `/v1/${jobId}`, { key });
            expect(read.status).toBe(200);
            return read.body.results[0].rows === null ? undefined : read;
          },
          workWaitMs,
        );
        const rows = delivered.body.results[0].rows.results;
        expect(rows).toHaveLength(bigRowCount);
        expect(delivered.body.results[0].rows.sources).toHaveLength(bigRowCount);
        expect(rows[0].product).toBe(`item 0 ${"x".repeat(6000)}`);
        expect(rows[bigRowCount - 1].price).toBe(bigRowCount - 1);
        expect(delivered.body.results[0].usage.row_count).toBe(bigRowCount);

        // That read was delivered: no read receives the rows again, and storage no longer holds them.
        const later = await Promise.all(
          Array.from({ length: 5 }, () => server.call("GET", `/v1/${jobId}`, { key })),
        );
        for (const read of later) expect(read.body.results[0].rows).toBeNull();
        await handoverRecorded(server.app.store.db, jobId);
        const stored = await server.app.store.db
          .selectFrom("videos")
          .select(["rows", "submitted_url"])
          .where("job_id", "=", jobId)
          .execute();
        expect(stored).toEqual([{ rows: null, submitted_url: null }]);
      });
    });
  });
}
