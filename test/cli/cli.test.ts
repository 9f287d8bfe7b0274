// The `vidrows` command as an operator uses it: migrate, workspaces, credits, mistakes, and first start.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import {
  type CliResult,
  killAllChildren,
  runCli,
  type ServerProcess,
  startServerProcess,
} from "../support/processes.js";
import { call } from "../support/test-server.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

/** A refused command: non-zero exit, nothing on stdout, and on stderr a message (no stack trace) matching `says`. */
function expectRefusal(result: CliResult, says: RegExp) {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^vidrows: /);
  expect(result.stderr).toMatch(says);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

// Mistakes in the command line itself, refused before any database is opened; "WS" is a well-formed id.
const malformed: { args: string[]; says: RegExp }[] = [
  { args: ["credits", "grant", "WS", "0"], says: /whole number of at least 1.*"0"/ },
  { args: ["credits", "grant", "WS", "-5"], says: /"-5".*at least 1/ },
  { args: ["credits", "grant", "WS", "abc"], says: /whole number of at least 1.*"abc"/ },
  { args: ["credits", "grant", "WS", "1.5"], says: /whole number of at least 1/ },
  { args: ["credits", "grant", "WS"], says: /whole number of at least 1/ },
  { args: ["credits", "grant"], says: /credits grant needs <workspace_id> <credits>/ },
  { args: ["workspace", "create", "--plan", "free"], says: /needs --name <name>/ },
  { args: ["workspace", "create", "--name", "x"], says: /needs --plan <plan>/ },
  { args: ["workspace", "set-plan", "WS"], says: /set-plan needs <workspace_id> <plan>/ },
  {
    args: ["workspace"],
    says: /"vidrows workspace" needs a sub-command: list, create.*vidrows help workspace/,
  },
  { args: ["frobnicate"], says: /Unknown command "frobnicate"\. See `vidrows help`/ },
  { args: ["migrate", "--force"], says: /Unknown option --force .*`vidrows help migrate`/ },
];

// A safety net: each test stops its own servers, even when it fails (see onTestFinished).
afterAll(async () => {
  await killAllChildren();
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vidrows CLI on ${dialectTitle(dialect)}`, () => {
    const databases: FreshDatabase[] = [];
    async function fresh(): Promise<FreshDatabase> {
      const database = await freshDatabase(dialect.name, { empty: true });
      databases.push(database);
      return database;
    }
    afterAll(async () => {
      await killAllChildren();
      await Promise.all(databases.map((d) => d.drop()));
    });

    it("migrates an empty database, then says it is up to date", async () => {
      const env = { DATABASE_URL: (await fresh()).url };
      const first = await runCli(["migrate"], env);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^Applied: 0001_foundation\b/);

      const second = await runCli(["migrate"], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe("The database is up to date.\n");

      const json = await runCli(["migrate", "--json"], env);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ applied: [] });
    });

    it("prints the applied migrations as JSON", async () => {
      const result = await runCli(["migrate", "--json"], { DATABASE_URL: (await fresh()).url });
      expect(result.code).toBe(0);
      const printed = JSON.parse(result.stdout);
      expect(Object.keys(printed)).toEqual(["applied"]);
      expect(printed.applied[0]).toBe("0001_foundation");
    });

    it("lets two migrations run at once on a fresh database, applying each version once", async () => {
      const env = { DATABASE_URL: (await fresh()).url };
      const runs = await Promise.all([
        runCli(["migrate", "--json"], env),
        runCli(["migrate", "--json"], env),
      ]);
      for (const run of runs) {
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
      }
      const applied = runs.flatMap((run) => JSON.parse(run.stdout).applied as string[]);
      expect(applied).toContain("0001_foundation");
      expect(new Set(applied).size).toBe(applied.length);
      // One of them did the work; the other waited and found it done.
      expect(runs.map((run) => JSON.parse(run.stdout).applied.length === 0).sort()).toEqual([false, true]);
    });

    describe("managing workspaces against a running server", () => {
      let env: Record<string, string>;
      let server: ServerProcess;
      beforeAll(async () => {
        const database = await fresh();
        env = { DATABASE_URL: database.url };
        server = await startServerProcess({ databaseUrl: database.url });
      });
      afterAll(async () => {
        await server?.stop();
      });

      let made = 0;
      async function createFree() {
        const created = await runCli(
          ["workspace", "create", "--name", `x-${++made}`, "--plan", "free", "--json"],
          env,
        );
        expect(created.stderr).toBe("");
        expect(created.code).toBe(0);
        return JSON.parse(created.stdout) as { workspace_id: string; api_key: string };
      }

      it("creates a workspace and prints exactly its id and a key that works", async () => {
        const created = await runCli(
          ["workspace", "create", "--name", `x-${++made}`, "--plan", "free", "--json"],
          env,
        );
        expect(created.code).toBe(0);
        const printed = JSON.parse(created.stdout);
        expect(Object.keys(printed).sort()).toEqual(["api_key", "workspace_id"]);
        expect(printed.workspace_id).toMatch(/^ws_/);
        expect(printed.api_key).toMatch(/^vr_live_[0-9A-Za-z]{32}$/);

        const usage = await call(server.url, "GET", "/v1/usage", { key: printed.api_key });
        expect(usage.status).toBe(200);
        expect(usage.body.plan.id).toBe("free");
        expect(usage.body.credits.balance).toBe(100);
      });

      it("moves a workspace to another plan, which the server applies at once", async () => {
        const { workspace_id, api_key } = await createFree();
        const moved = await runCli(["workspace", "set-plan", workspace_id, "scale", "--json"], env);
        expect(moved.code).toBe(0);
        expect(JSON.parse(moved.stdout)).toEqual({ workspace_id, plan: "scale", balance: 100_000 });

        const usage = await call(server.url, "GET", "/v1/usage", { key: api_key });
        expect(usage.body.plan.id).toBe("scale");
        expect(usage.body.credits.balance).toBe(100_000);
        expect(usage.headers.get("ratelimit-limit")).toBe("6000");
      });

      it("grants credits on top of the balance the API reports", async () => {
        const { workspace_id, api_key } = await createFree();
        const before = await call(server.url, "GET", "/v1/usage", { key: api_key });
        const granted = await runCli(["credits", "grant", workspace_id, "500", "--json"], env);
        expect(granted.code).toBe(0);
        expect(JSON.parse(granted.stdout)).toEqual({
          workspace_id,
          granted: 500,
          balance: before.body.credits.balance + 500,
        });
        const after = await call(server.url, "GET", "/v1/usage", { key: api_key });
        expect(after.body.credits.balance).toBe(before.body.credits.balance + 500);
      });

      describe("refuses bad input with a non-zero exit and a message that says what to do", () => {
        // Mistakes found only in the database; "WS" stands for a real workspace none of them may change.
        let victim: { workspace_id: string; api_key: string };
        beforeAll(async () => {
          victim = await createFree();
          const taken = await runCli(["workspace", "create", "--name", "taken", "--plan", "free"], env);
          expect(taken.code).toBe(0);
        });
        const cases: { args: string[]; says: RegExp }[] = [
          {
            args: ["workspace", "create", "--name", "x", "--plan", "gold"],
            says: /plan "gold".*free, pro, scale/,
          },
          { args: ["workspace", "set-plan", "WS", "gold"], says: /plan "gold".*free, pro, scale/ },
          {
            args: ["workspace", "create", "--name", "taken", "--plan", "free"],
            says: /"taken" exists already/,
          },
          { args: ["workspace", "set-plan", "ws_nope", "pro"], says: /ws_nope[\s\S]*workspace create/ },
          { args: ["credits", "grant", "ws_nope", "5"], says: /ws_nope[\s\S]*workspace create/ },
        ];
        for (const { args, says } of cases) {
          it(`vidrows ${args.join(" ")}`, async () => {
            const result = await runCli(
              args.map((arg) => (arg === "WS" ? victim.workspace_id : arg)),
              env,
            );
            expectRefusal(result, says);
          });
        }
        it("changed nothing", async () => {
          const usage = await call(server.url, "GET", "/v1/usage", { key: victim.api_key });
          expect(usage.body.plan.id).toBe("free");
          expect(usage.body.credits.balance).toBe(100);
        });
      });
    });

    it("prints the default workspace's key on the first start only", async () => {
      const database = await fresh();
      const first = await startServerProcess({ databaseUrl: database.url });
      onTestFinished(() => first.stop());
      const key = first.printedKey();
      expect(key).not.toBeNull();
      expect(first.stdout().match(/vr_live_/g)).toHaveLength(1);
      expect(first.stdout()).toContain('workspace "default"');
      const usage = await call(first.url, "GET", "/v1/usage", { key: key ?? "" });
      expect(usage.status).toBe(200);
      expect(usage.body.plan.id).toBe("pro");
      await first.stop();

      const second = await startServerProcess({ databaseUrl: database.url });
      onTestFinished(() => second.stop());
      expect(second.printedKey()).toBeNull();
      expect(second.stdout()).not.toContain('workspace "default"');
      expect((await call(second.url, "GET", "/v1/usage", { key: key ?? "" })).status).toBe(200);
    });
  });
}

describe("vidrows CLI without a database", () => {
  for (const { args, says } of malformed) {
    it(`refuses vidrows ${args.join(" ")}`, async () => {
      const result = await runCli(
        args.map((arg) => (arg === "WS" ? "ws_01m81x7wcfaeen6pj658a749e7" : arg)),
        {},
      );
      expectRefusal(result, says);
    });
  }

  it("refuses to serve with a bad setting, naming the variable", async () => {
    const cases: { env: Record<string, string>; names: string }[] = [
      { env: { PORT: "abc" }, names: "PORT" },
      { env: { PORT: "70000" }, names: "PORT" },
      { env: { DATABASE_URL: "mysql://x" }, names: "DATABASE_URL" },
      { env: { LOG_LEVEL: "loud" }, names: "LOG_LEVEL" },
      { env: { VIDROWS_ANONYMOUS_RPM: "0" }, names: "VIDROWS_ANONYMOUS_RPM" },
      { env: { VIDROWS_PLANS: "/nonexistent/plans.json" }, names: "VIDROWS_PLANS" },
      // Checked even by a process that runs no worker (the one that reads it).
      { env: { VIDROWS_CAPTIONS: "ftp://x" }, names: "VIDROWS_CAPTIONS" },
      { env: { VIDROWS_TRUST_PROXY: "2" }, names: "VIDROWS_TRUST_PROXY" },
      { env: { VIDROWS_WEBHOOK_ALLOW_PRIVATE: "enabled" }, names: "VIDROWS_WEBHOOK_ALLOW_PRIVATE" },
    ];
    const folder = mkdtempSync(join(tmpdir(), "vidrows-bad-setting-"));
    for (const { env, names } of cases) {
      const result = await runCli(
        ["serve", "--no-worker"],
        { DATABASE_URL: join(folder, "vidrows.db"), PORT: "0", ...env },
        15_000,
      );
      expect(result.code, names).not.toBe(0);
      expect(result.stderr, names).toMatch(new RegExp(`^vidrows: .*\\b${names}\\b`));
      expect(result.stdout, names).not.toContain("vidrows is listening");
    }
    // The bad setting stopped start-up before the database was touched.
    expect(readdirSync(folder)).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });
});
