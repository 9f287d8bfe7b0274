// What `POST /v1` asks of the database: on PostgreSQL one statement beside the key check, on SQLite a grouped transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, exampleJobBody } from "../support/endpoints.js";
import { StatementLog } from "../support/statement-log.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const keyCheck = /^select .* from "api_keys" .*where "api_keys"\."key_hash" = /;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `a submission's statements on ${dialectTitle(dialect)}`,
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
          .filter((sql) => !keyCheck.test(sql));
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

      it("writes nothing when the workspace may not spend, and says so with 402", async () => {
        const { workspaceId, key } = await server.workspace("pro");
        await server.app.store.db
          .updateTable("workspaces")
          .set({ balance: 0 })
          .where("id", "=", workspaceId)
          .execute();
        const refused = await server.call("POST", "/v1", { key, body: exampleJobBody() });
        expect(refused.status).toBe(402);
        expect(refused.body.error.code).toBe("insufficient_credits");
        const db = server.app.store.db;
        expect(
          await db.selectFrom("jobs").select("id").where("workspace_id", "=", workspaceId).execute(),
        ).toEqual([]);
        expect(
          await db
            .selectFrom("job_admissions")
            .select("job_id")
            .where("workspace_id", "=", workspaceId)
            .execute(),
        ).toEqual([]);
        const row = await db
          .selectFrom("workspaces")
          .select(["jobs_queued", "next_video_priority"])
          .where("id", "=", workspaceId)
          .executeTakeFirstOrThrow();
        expect([Number(row.jobs_queued), Number(row.next_video_priority)]).toEqual([0, 0]);
      });

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
