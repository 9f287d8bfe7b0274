// Cost: what `POST /v1` asks of the database: on PostgreSQL one statement beside the key check, on SQLite a grouped transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services.js";
import { allMechanismsOn } from "../../src/mechanism-switches.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, exampleJobBody } from "../support/endpoints.js";
import { keyCheckStatement, StatementLog } from "../support/statement-log.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `Cost: a submission's statements on ${dialectTitle(dialect)}`,
    () => {
      const log = new StatementLog();
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(dialect.name, acceptingJobs.config, {
          ...acceptingJobs.app,
          wrapStore: (store) => log.watch(store),
        });
      });
      afterAll(async () => {
        await server?.close();
      });

      /** The statements of one accepted submission, beside the key check. */
      async function submissionStatements(key: string, headers: Record<string, string> = {}) {
        log.clear();
        const submitted = await server.call("POST", "/v1", { key, body: exampleJobBody(), headers });
        expect(submitted.status, submitted.text).toBe(202);
        return log
          .statements()
          .map((q) => q.sql)
          .filter((sql) => !keyCheckStatement.test(sql));
      }

      it(
        dialect.name === "postgres"
          ? "writes the job, its places, key and admission in one statement"
          : "writes the job, its places and admission in three statements of one grouped commit",
        async () => {
          const { key } = await server.workspace("pro");
          await server.call("GET", "/v1/usage", { key }); // writes last_used_at, reserves rate-limit hits
          const statements = await submissionStatements(key);
          if (dialect.name === "postgres") {
            expect(statements).toHaveLength(1);
            expect(statements[0]).toMatch(/^with "places" as \(update "workspaces" /);
            for (const table of ["jobs", "job_keys", "job_admissions"]) {
              expect(statements[0]).toContain(`insert into "${table}"`);
            }
          } else {
            expect(statements.map((sql) => /^\w+ \w* ?"?(\w+)"?/.exec(sql)?.[1])).toEqual([
              "jobs",
              "workspaces",
              "job_admissions",
            ]);
          }
        },
      );

      if (dialect.name === "postgres") {
        /** Ten submissions of the workspace asked for at the same moment, of 1 to 10 videos. */
        async function tenAtOnce(key: string, { jobSubmission } = server.app.services) {
          const { accessCheck } = server.app.services;
          const caller = await accessCheck.identify(key);
          if (!caller) throw new Error("the key is live");
          log.clear();
          return Promise.allSettled(
            Array.from({ length: 10 }, (_, i) =>
              jobSubmission.submit(caller, {
                videos: Array.from({ length: i + 1 }, (_, v) => `j${i}v${v}`.padEnd(11, "x")),
                schema: { columns: ["product", "price"] },
              }),
            ),
          );
        }
        const groupStatements = () =>
          log.statements().filter((q) => /^with "places" as \(update "workspaces" /.test(q.sql)).length;

        /** The ten's queue places, one after another in the workspace's order, and its counters. */
        async function expectPlacesInTurn(workspaceId: string) {
          const admissions = await server.app.store.db
            .selectFrom("job_admissions")
            .select(["first_priority", "platform_video_ids"])
            .where("workspace_id", "=", workspaceId)
            .orderBy("first_priority")
            .execute();
          expect(admissions).toHaveLength(10);
          let next = 0;
          for (const admission of admissions) {
            expect(Number(admission.first_priority)).toBe(next);
            next += (JSON.parse(admission.platform_video_ids) as string[]).length;
          }
          const row = await server.app.store.db
            .selectFrom("workspaces")
            .select(["jobs_queued", "next_video_priority"])
            .where("id", "=", workspaceId)
            .executeTakeFirstOrThrow();
          expect([Number(row.jobs_queued), Number(row.next_video_priority)]).toEqual([10, 55]);
        }

        it("writes the submissions of a workspace that arrive together in one statement, their places one after another", async () => {
          const { workspaceId, key } = await server.workspace("pro");
          const outcomes = await tenAtOnce(key);
          expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill("fulfilled"));
          // The first goes at once; the nine that arrive while it is on its way go together after it.
          expect(groupStatements()).toBe(2);
          await expectPlacesInTurn(workspaceId);
        });

        it("writes each in a transaction of its own with VIDROWS_GROUPED_SUBMISSIONS=0, their places the same", async () => {
          const { workspaceId, key } = await server.workspace("pro");
          const services = createServices(server.app.store, server.app.config.plans, true, undefined, {
            mechanisms: { ...allMechanismsOn, groupedSubmissions: false },
          });
          const outcomes = await tenAtOnce(key, services);
          expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill("fulfilled"));
          expect(groupStatements()).toBe(0);
          expect(log.statements().filter((q) => q.sql.startsWith('insert into "jobs"'))).toHaveLength(10);
          await expectPlacesInTurn(workspaceId);
        });
      }

      it("writes a submission with an Idempotency-Key in a transaction, and answers its replay without a second job", async () => {
        const { workspaceId, key } = await server.workspace("pro");
        const headers = { "idempotency-key": "statements-test" };
        expect(
          (await submissionStatements(key, headers)).some((sql) => sql.includes('"idempotency_keys"')),
        ).toBe(true);
        const again = await server.call("POST", "/v1", { key, body: exampleJobBody(), headers });
        expect(again.status).toBe(202);
        const jobs = await server.app.store.db
          .selectFrom("jobs")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .execute();
        expect(jobs).toHaveLength(1);
      });
    },
  );
}
