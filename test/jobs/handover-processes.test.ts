// The handover across server processes: racing first reads on two processes give the rows to exactly one,
// and a process killed while it writes them to a slow reader leaves them to the next read once its claim lapses.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { stallAfterFirstChunk } from "../support/hostile-clients.js";
import { bigRowCount, handoverRecorded, schema, useJobsApi, waitFor } from "../support/jobs-api.js";
import type { PipelineServer } from "../support/pipeline.js";
import { killAllChildren, type ServerProcess, startServerProcess } from "../support/processes.js";
import { call, testPlans } from "../support/test-server.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

/** A claim this short in the child processes, so that a killed one's lapses within the test's patience. */
const claimSeconds = 4;

// The children get the test server's plans, whose limits the tests never meet.
const plansFolder = mkdtempSync(join(tmpdir(), "vidrows-plans-"));
const plansFile = join(plansFolder, "plans.json");
writeFileSync(plansFile, JSON.stringify(testPlans));
afterAll(() => rmSync(plansFolder, { recursive: true, force: true }));

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `the handover across processes on ${dialectTitle(dialect)}`,
    () => {
      const { server: running, videoWithCaptions, submit, settledByList } = useJobsApi(dialect.name);
      let server: PipelineServer;
      beforeAll(() => {
        server = running();
      });
      afterEach(killAllChildren);
      afterAll(killAllChildren);

      const startSecondServer = (): Promise<ServerProcess> =>
        startServerProcess({
          databaseUrl: server.database.url,
          env: { VIDROWS_HANDOVER_CLAIM_SECONDS: String(claimSeconds), VIDROWS_PLANS: plansFile },
        });

      async function settledJob(key: string, extra = "") {
        const job = await submit(key, { videos: [videoWithCaptions(extra)], schema });
        expect(job.status, job.text).toBe(202);
        const jobId = job.body.job_id as string;
        await settledByList(key, jobId);
        return jobId;
      }

      it("gives the rows to exactly one of the first reads racing on two processes", async () => {
        const { key } = await server.workspace();
        const other = await startSecondServer();
        for (let round = 0; round < 3; round++) {
          const jobId = await settledJob(key);
          const reads = await Promise.all(
            Array.from({ length: 16 }, (_, i) =>
              call(i % 2 === 0 ? server.url : other.url, "GET", `/v1/${jobId}`, { key }),
            ),
          );
          for (const read of reads) expect(read.status, read.text).toBe(200);
          expect(reads.filter((read) => read.body.results[0].rows !== null)).toHaveLength(1);
          await handoverRecorded(server.app.store.db, jobId);
          for (const base of [server.url, other.url]) {
            expect((await call(base, "GET", `/v1/${jobId}`, { key })).body.results[0].rows).toBeNull();
          }
        }
      });

      it("keeps every row when the process writing them to a slow reader is killed: the next read receives them once its claim lapses", async () => {
        const { key } = await server.workspace();
        const jobId = await settledJob(key, "BIGROWS");
        const doomed = await startSecondServer();
        const slow = await stallAfterFirstChunk(doomed.url, `/v1/${jobId}`, key);
        expect(slow.start).toMatch(/^HTTP\/1\.1 200 /);

        await doomed.kill();
        slow.close();
        const db = server.app.store.db;
        const claimed = await db
          .selectFrom("jobs")
          .select(["handed_over_at", "handover_claim"])
          .where("id", "=", jobId)
          .executeTakeFirstOrThrow();
        expect(claimed.handed_over_at).toBeNull();
        expect(claimed.handover_claim).not.toBeNull();

        // Restarted, the service answers `rows: null` with `rows_held` while the dead process's claim stands,
        // then the rows.
        const restarted = await startSecondServer();
        const delivered = await waitFor(
          "the rows of the killed process's answer to be read again",
          async () => {
            const read = await call(restarted.url, "GET", `/v1/${jobId}`, { key });
            expect(read.status, read.text).toBe(200);
            if (read.body.results[0].rows !== null) return read;
            expect(read.body.rows_held).toBe(true);
            return undefined;
          },
          workWaitMs,
        );
        const rows = delivered.body.results[0].rows;
        expect(rows.results).toHaveLength(bigRowCount);
        expect(rows.sources).toHaveLength(bigRowCount);
        expect(rows.results[bigRowCount - 1].price).toBe(bigRowCount - 1);
        await handoverRecorded(db, jobId);
      });
    },
  );
}
