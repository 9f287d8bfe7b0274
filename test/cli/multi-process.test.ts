// Several `vidrows serve` processes on one database: revocations, rate limits and first start hold across them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/database.js";
import {
  type DialectCase,
  type DialectName,
  dialects,
  dialectTitle,
  type FreshDatabase,
  freshDatabase,
} from "../support/databases.js";
import { killAllChildren, runCli, type ServerProcess, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { sleep } from "../../src/concurrency/sleep.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

const postgres = dialects.find((d) => d.name === "postgres") as DialectCase;

// "limited" allows 10 requests a minute and "paced" 600 (the Pro plan's, taken in blocks of 6); "pro"
// never meets its limit in these tests.
function writePlanFile(folder: string): string {
  const plan = (name: string, rpm: number) => ({
    name,
    requests_per_minute: rpm,
    api_keys: 10,
    webhook_endpoints: 0,
    cycle_allowance: 100,
    videos_per_job: 10,
  });
  const path = join(folder, "plans.json");
  writeFileSync(
    path,
    JSON.stringify({ pro: plan("Pro", 100_000), limited: plan("Limited", 10), paced: plan("Paced", 600) }),
  );
  return path;
}

let workspacesMade = 0;

async function createWorkspace(env: Record<string, string>, plan: string) {
  const created = await runCli(
    ["workspace", "create", "--name", `mp-${plan}-${++workspacesMade}`, "--plan", plan, "--json"],
    env,
  );
  expect(created.stderr).toBe("");
  expect(created.code).toBe(0);
  return JSON.parse(created.stdout) as { workspace_id: string; api_key: string };
}

/**
 * Waits (at most 15 s) until at least 15 s remain in the current one-minute rate-limit window, so
 * that a short burst of requests all count in one window.
 */
async function awayFromWindowEnd(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 45_000) await sleep(60_000 - intoWindow + 100);
}

/** Two `vidrows serve` processes on one fresh database of `dialect`, for the tests of a describe block. */
function twoServerProcesses(dialect: DialectName) {
  const servers = {} as { env: Record<string, string>; a: ServerProcess; b: ServerProcess };
  let database: FreshDatabase | undefined;
  const planFolder = mkdtempSync(join(tmpdir(), "vidrows-plans-"));
  beforeAll(async () => {
    database = await freshDatabase(dialect);
    const env = { DATABASE_URL: database.url, VIDROWS_PLANS: writePlanFile(planFolder) };
    const started = await Promise.all([
      startServerProcess({ databaseUrl: database.url, env }),
      startServerProcess({ databaseUrl: database.url, env }),
    ]);
    Object.assign(servers, { env, a: started[0], b: started[1] });
  });
  afterAll(async () => {
    await killAllChildren();
    await database?.drop();
    rmSync(planFolder, { recursive: true, force: true });
  });
  return servers;
}

// SQLite too: its servers remember keys between writes, and a revocation is a write they must notice.
for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `revoking through one of two server processes on one ${dialectTitle(dialect)} database`,
    () => {
      const servers = twoServerProcesses(dialect.name);

      it("refuses the key on the very next request to the other process", async () => {
        const { env, a, b } = servers;
        const { api_key: owner } = await createWorkspace(env, "pro");
        const second = await call(a.url, "POST", "/v1/keys", { key: owner, body: { label: "to revoke" } });
        expect(second.status).toBe(201);
        // B serves the key three times: the first writes last_used_at and reserves rate-limit hits,
        // the second finds a database nothing has written to since, the third is answered from what
        // B remembers of the key. A cache that missed the revocation would now let the key in.
        for (let i = 0; i < 3; i++) {
          expect((await call(b.url, "GET", "/v1/keys", { key: second.body.key })).status).toBe(200);
        }

        expect((await call(a.url, "DELETE", `/v1/keys/${second.body.id}`, { key: owner })).status).toBe(204);

        const refused = await call(b.url, "GET", "/v1/keys", { key: second.body.key });
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe("unauthorized");
        expect((await call(b.url, "GET", "/v1/keys", { key: owner })).status).toBe(200);
      });

      it("serves a workspace's new plan on the very next request after another process changes it", async () => {
        const { env, b } = servers;
        const { workspace_id: workspaceId, api_key: key } = await createWorkspace(env, "pro");
        for (let i = 0; i < 3; i++) {
          const usage = await call(b.url, "GET", "/v1/usage", { key });
          expect(usage.body.plan.id).toBe("pro");
        }
        const changed = await runCli(["workspace", "set-plan", workspaceId, "limited", "--json"], env);
        expect(changed.code, changed.stderr).toBe(0);
        const after = await call(b.url, "GET", "/v1/usage", { key });
        expect(after.body.plan.id).toBe("limited");
        expect(after.headers.get("ratelimit-limit")).toBe("10");
      });
    },
  );
}

/** The budget headers of a response, and the seconds the window had left around the request. */
async function budgetOf(on: ServerProcess, key: string) {
  const before = Date.now();
  const response = await call(on.url, "GET", "/v1/usage", { key });
  const after = Date.now();
  expect(response.status, response.text).toBe(200);
  const windowEnd = (Math.floor(before / 60_000) + 1) * 60_000;
  return {
    remaining: Number(response.headers.get("ratelimit-remaining")),
    reset: Number(response.headers.get("ratelimit-reset")),
    resetBounds: [Math.ceil((windowEnd - after) / 1000), Math.ceil((windowEnd - before) / 1000)],
  };
}

// SQLite too: `vidrows cluster` runs several API processes on one file.
for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `the rate-limit headers of two server processes on one ${dialectTitle(dialect)} database`,
    () => {
      const servers = twoServerProcesses(dialect.name);

      it("tell the workspace's remaining budget exactly while one process serves it", async () => {
        const { env, a } = servers;
        const { api_key: key } = await createWorkspace(env, "paced");
        await awayFromWindowEnd();
        for (let made = 1; made <= 14; made++) {
          const budget = await budgetOf(a, key);
          expect(budget.remaining).toBe(600 - made);
          expect(budget.reset).toBeGreaterThanOrEqual(budget.resetBounds[0] as number);
          expect(budget.reset).toBeLessThanOrEqual(budget.resetBounds[1] as number);
        }
      });

      it("never tell more than the truth across both, and are within a block of it", async () => {
        const { env, a, b } = servers;
        const { api_key: key } = await createWorkspace(env, "paced");
        await awayFromWindowEnd();
        // Uneven turns, so that each process's block of 6 runs out at other moments than the other's.
        const turns = [
          a,
          b,
          b,
          a,
          a,
          a,
          b,
          a,
          b,
          b,
          b,
          b,
          a,
          b,
          a,
          a,
          b,
          b,
          a,
          b,
          a,
          a,
          a,
          b,
          b,
          a,
          b,
          b,
          b,
          a,
        ];
        let made = 0;
        for (const server of turns) {
          const budget = await budgetOf(server, key);
          made++;
          const truth = 600 - made;
          expect(budget.remaining).toBeLessThanOrEqual(truth);
          // Less only by the hits the other process holds unused: at most its block of 6, less one.
          expect(budget.remaining).toBeGreaterThanOrEqual(truth - 5);
          expect(budget.reset).toBeGreaterThanOrEqual(budget.resetBounds[0] as number);
          expect(budget.reset).toBeLessThanOrEqual(budget.resetBounds[1] as number);
        }
      });
    },
  );
}

describe.skipIf(postgres.skipReason !== null)(
  `two server processes on one ${dialectTitle(postgres)} database`,
  () => {
    const servers = twoServerProcesses("postgres");

    it("counts one per-minute limit across both processes", async () => {
      const { env, a, b } = servers;
      const { api_key: key } = await createWorkspace(env, "limited");
      await awayFromWindowEnd();
      const remaining: number[] = [];
      for (let i = 0; i < 10; i++) {
        const response = await call(i % 2 === 0 ? a.url : b.url, "GET", "/v1/usage", { key });
        expect(response.status).toBe(200);
        expect(response.headers.get("ratelimit-limit")).toBe("10");
        remaining.push(Number(response.headers.get("ratelimit-remaining")));
      }
      expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

      for (const server of [a, b]) {
        const refused = await call(server.url, "GET", "/v1/usage", { key });
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe("rate_limited");
        const retryAfter = Number(refused.headers.get("retry-after"));
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    });
  },
);

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `two server processes starting at once on an empty ${dialectTitle(dialect)} database`,
    () => {
      const databases: FreshDatabase[] = [];
      afterEach(async () => {
        await killAllChildren();
      });
      afterAll(async () => {
        await Promise.all(databases.map((d) => d.drop()));
      });

      // Two rounds: the race between the two is not the same every time.
      for (const round of [1, 2]) {
        it(`both start, migrate once and create one default workspace (round ${round})`, async () => {
          const database = await freshDatabase(dialect.name, { empty: true });
          databases.push(database);
          const servers = await Promise.all([
            startServerProcess({ databaseUrl: database.url }),
            startServerProcess({ databaseUrl: database.url }),
          ]);

          const keys = servers.map((s) => s.printedKey()).filter((k) => k !== null);
          expect(keys).toHaveLength(1);
          for (const server of servers) {
            const usage = await call(server.url, "GET", "/v1/usage", { key: keys[0] });
            expect(usage.status).toBe(200);
            expect(usage.body.plan.id).toBe("pro");
          }

          const store = openStore(database.target, { maxConnections: 1 });
          try {
            const defaults = await store.db
              .selectFrom("workspaces")
              .select("id")
              .where("name", "=", "default")
              .execute();
            expect(defaults).toHaveLength(1);
            const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
            const names = applied.rows.map((r) => r.name);
            expect(names).toContain("0001_foundation");
            expect(new Set(names).size).toBe(names.length);
          } finally {
            await store.close();
          }
          const again = await runCli(["migrate", "--json"], { DATABASE_URL: database.url });
          expect(again.code).toBe(0);
          expect(JSON.parse(again.stdout)).toEqual({ applied: [] });
        });
      }
    },
  );
}
