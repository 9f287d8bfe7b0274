// Cost: the remembered reads: what a repeated read costs in statements, and which writes make it compute again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, exampleJobBody } from "../support/endpoints.js";
import { keyCheckStatement, StatementLog } from "../support/statement-log.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Cost: remembered reads on ${dialectTitle(dialect)}`, () => {
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

    /** A workspace with a job, and the paths of the four remembered reads. */
    async function workspaceWithJob() {
      const { key } = await server.workspace("pro");
      const job = await server.call("POST", "/v1", { key, body: exampleJobBody() });
      expect(job.status, job.text).toBe(202);
      const paths = [`/v1/${job.body.job_id}`, "/v1?limit=25", "/v1/usage", "/v1/keys"];
      // The first requests write last_used_at and reserve rate-limit hits; then reads can be remembered.
      for (const path of paths) expect((await server.call("GET", path, { key })).status).toBe(200);
      return { key, paths };
    }

    /** The statements one GET ran, the background work left out. */
    async function statementsOf(key: string, path: string): Promise<string[]> {
      log.clear();
      const response = await server.call("GET", path, { key });
      expect(response.status, response.text).toBe(200);
      return log.statements().map((q) => q.sql);
    }

    /** The statements of a read beside the key check. */
    const readsRun = (statements: string[]) =>
      statements.filter((sql) => !keyCheckStatement.test(sql)).length;

    /** What a remembered read costs: SQLite remembers the key too; PostgreSQL checks it, in one statement. */
    const rememberedCost = (statements: string[]) => {
      if (dialect.name === "sqlite") expect(statements).toEqual([]);
      else {
        expect(statements).toHaveLength(1);
        expect(statements[0]).toMatch(keyCheckStatement);
      }
    };

    it("answers a repeated read of a job, a list page, usage and the keys from memory", async () => {
      const { key, paths } = await workspaceWithJob();
      for (const path of paths) {
        await statementsOf(key, path);
        rememberedCost(await statementsOf(key, path));
      }
    });

    it("computes every read again after a write to the workspace", async () => {
      const { key, paths } = await workspaceWithJob();
      for (const path of paths) await statementsOf(key, path);
      const saved = await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: 50 } });
      expect(saved.status, saved.text).toBe(200);
      for (const path of paths) {
        expect(readsRun(await statementsOf(key, path))).toBeGreaterThan(0);
        rememberedCost(await statementsOf(key, path));
      }
    });

    it(
      dialect.name === "postgres"
        ? "keeps a workspace's answers while other workspaces are written to (a version per workspace)"
        : "computes every read again after a write anywhere in the file (one stamp for the database)",
      async () => {
        const { key, paths } = await workspaceWithJob();
        const other = await workspaceWithJob();
        for (const path of paths) await statementsOf(key, path);
        const elsewhere = await server.call("POST", "/v1", { key: other.key, body: exampleJobBody() });
        expect(elsewhere.status).toBe(202);
        for (const path of paths) {
          const statements = await statementsOf(key, path);
          if (dialect.name === "postgres") rememberedCost(statements);
          else expect(readsRun(statements)).toBeGreaterThan(0);
        }
      },
    );
  });
}
