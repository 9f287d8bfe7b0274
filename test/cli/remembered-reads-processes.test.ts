// Remembered answers across two `vidrows serve` processes: never older than the request, rows handed over once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { hold, schema, useJobsApi, waitFor } from "../support/jobs-api.js";
import { killAllChildren, type ServerProcess, startServerProcess } from "../support/processes.js";
import { type ApiResponse, call } from "../support/test-server.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `remembered reads across two server processes on one ${dialectTitle(dialect)} database`,
    () => {
      // The test's own server runs the worker (and its fake model); A and B only serve.
      const { server, videoWithCaptions } = useJobsApi(dialect.name);
      let a: ServerProcess;
      let b: ServerProcess;
      beforeAll(async () => {
        const env = { VIDROWS_LLM_BASE_URL: server().model.url, VIDROWS_LLM_API_KEY: "x" };
        const databaseUrl = server().database.url;
        [a, b] = await Promise.all([
          startServerProcess({ databaseUrl, env }),
          startServerProcess({ databaseUrl, env }),
        ]);
      });
      afterAll(async () => {
        await killAllChildren();
      });

      const get = (on: ServerProcess, path: string, key: string) => call(on.url, "GET", path, { key });

      /** Reads `path` on `on` three times: the first computes, the next two are answered from memory. */
      async function remembered(on: ServerProcess, path: string, key: string): Promise<ApiResponse> {
        let last: ApiResponse | undefined;
        for (let i = 0; i < 3; i++) {
          last = await get(on, path, key);
          expect(last.status, last.text).toBe(200);
        }
        return last as ApiResponse;
      }

      /** A job held running until `release`, submitted through `on`. */
      async function heldJob(on: ServerProcess, key: string) {
        const gate = hold();
        const submitted = await call(on.url, "POST", "/v1", {
          key,
          body: { videos: [videoWithCaptions(gate.marker)], schema },
        });
        expect(submitted.status, submitted.text).toBe(202);
        return { jobId: submitted.body.job_id as string, release: gate.release };
      }

      /** Waits until the job has settled, asking the database: a read through the API would take its rows. */
      const settled = (jobId: string) =>
        waitFor(`job ${jobId} to settle`, async () => {
          const job = await server()
            .app.store.db.selectFrom("jobs")
            .select("status")
            .where("id", "=", jobId)
            .executeTakeFirstOrThrow();
          return job.status === "processing" ? undefined : job.status;
        });

      it("answers the very next read on B after a write through A, though B remembered the answer", async () => {
        const { key } = await server().workspace();

        await remembered(b, "/v1/keys", key);
        const created = await call(a.url, "POST", "/v1/keys", { key, body: { label: "made on A" } });
        expect(created.status).toBe(201);
        const keys = await get(b, "/v1/keys", key);
        expect(keys.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);

        expect((await remembered(b, "/v1/usage", key)).body.credits.hard_cap).toBeNull();
        expect((await call(a.url, "PATCH", "/v1/usage", { key, body: { hard_cap: 50 } })).status).toBe(200);
        expect((await get(b, "/v1/usage", key)).body.credits.hard_cap).toBe(50);

        const { jobId, release } = await heldJob(a, key);
        expect((await remembered(b, `/v1/${jobId}`, key)).body.status).toBe("processing");
        expect((await remembered(b, "/v1?limit=25", key)).body.data[0].status).toBe("processing");
        release();
        await settled(jobId);
        const read = await get(b, `/v1/${jobId}`, key);
        expect(read.body.status).toBe("done");
        expect(read.body.results[0].rows.results).toEqual([{ product: "held", price: 1 }]);
        expect((await get(b, "/v1?limit=25", key)).body.data[0].status).toBe("done");
      });

      it("hands a settled job's rows over exactly once when both processes race for its first read", async () => {
        const { key } = await server().workspace();
        for (let round = 0; round < 3; round++) {
          const { jobId, release } = await heldJob(round % 2 === 0 ? a : b, key);
          // Both remember the running job, so both must notice the settlement to hand anything over.
          await remembered(a, `/v1/${jobId}`, key);
          await remembered(b, `/v1/${jobId}`, key);
          release();
          await settled(jobId);
          const reads = await Promise.all(
            Array.from({ length: 12 }, (_, i) => get(i % 2 === 0 ? a : b, `/v1/${jobId}`, key)),
          );
          for (const read of reads) expect(read.status, read.text).toBe(200);
          const withRows = reads.filter((read) => read.body.results[0].rows !== null);
          expect(withRows).toHaveLength(1);
          expect(withRows[0]?.body.results[0].rows.results).toEqual([{ product: "held", price: 1 }]);
          // And no later read on either has them back.
          for (const on of [a, b])
            expect((await get(on, `/v1/${jobId}`, key)).body.results[0].rows).toBeNull();
        }
      });
    },
  );
}
