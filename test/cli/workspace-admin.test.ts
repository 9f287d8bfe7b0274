// `vidrows workspace list` and `vidrows workspace new-key`: the operator's view of every workspace, and a
// new key for a workspace whose keys are lost, checked against a real server on the same database.
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { killAllChildren, runCli, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

afterAll(async () => {
  await killAllChildren();
});

interface ListedWorkspace {
  workspace_id: string;
  name: string;
  plan: string;
  balance: number;
  active_keys: number;
  created_at: string;
}

/** Runs a command that must succeed, and answers its stdout. */
async function succeed(args: string[], env: Record<string, string>): Promise<string> {
  const result = await runCli(args, env);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vidrows workspace on ${dialectTitle(dialect)}`, () => {
    const databases: FreshDatabase[] = [];
    async function freshEnv(): Promise<Record<string, string>> {
      const database = await freshDatabase(dialect.name);
      databases.push(database);
      return { DATABASE_URL: database.url };
    }
    afterAll(async () => {
      await killAllChildren();
      await Promise.all(databases.map((d) => d.drop()));
    });

    async function create(env: Record<string, string>, name: string, plan: string) {
      const printed = await succeed(["workspace", "create", "--name", name, "--plan", plan, "--json"], env);
      return JSON.parse(printed) as { workspace_id: string; api_key: string };
    }

    it("lists no workspaces on an empty database, as text and as an empty JSON array", async () => {
      const env = await freshEnv();
      expect(await succeed(["workspace", "list"], env)).toMatch(/^No workspaces yet; .*workspace create/);
      expect(JSON.parse(await succeed(["workspace", "list", "--json"], env))).toEqual([]);
    });

    it("lists every workspace oldest first, with its plan, balance, active keys and creation time", async () => {
      const env = await freshEnv();
      const first = await create(env, "Acme research", "pro");
      const second = await create(env, "ci", "free");
      await succeed(["credits", "grant", second.workspace_id, "25"], env);

      const listed = JSON.parse(await succeed(["workspace", "list", "--json"], env)) as ListedWorkspace[];
      const stamp = expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(listed).toEqual([
        {
          workspace_id: first.workspace_id,
          name: "Acme research",
          plan: "pro",
          balance: 10_000,
          active_keys: 1,
          created_at: stamp,
        },
        {
          workspace_id: second.workspace_id,
          name: "ci",
          plan: "free",
          balance: 125,
          active_keys: 1,
          created_at: stamp,
        },
      ]);

      const lines = (await succeed(["workspace", "list"], env)).trimEnd().split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^WORKSPACE\s+NAME\s+PLAN\s+BALANCE\s+KEYS\s+CREATED$/);
      const cells = (line: string | undefined) => (line ?? "").split(/\s{2,}/);
      expect(cells(lines[1])).toEqual([
        first.workspace_id,
        "Acme research",
        "pro",
        "10000",
        "1",
        listed[0]?.created_at,
      ]);
      expect(cells(lines[2])).toEqual([second.workspace_id, "ci", "free", "125", "1", listed[1]?.created_at]);
    });

    it("gives a workspace whose every allowed key is lost a new key that the server accepts", async () => {
      const env = await freshEnv();
      const server = await startServerProcess({ databaseUrl: env.DATABASE_URL ?? "" });
      onTestFinished(() => server.stop());
      // The free plan allows two active keys; both exist and, for this story, both are lost.
      const { workspace_id, api_key: lost } = await create(env, "ci", "free");
      const second = await call(server.url, "POST", "/v1/keys", { key: lost, body: { label: "second" } });
      expect(second.status).toBe(201);

      const printed = await succeed(
        ["workspace", "new-key", workspace_id, "--label", "recovery", "--json"],
        env,
      );
      const issued = JSON.parse(printed) as {
        workspace_id: string;
        api_key: string;
        key_id: string;
        label: string;
      };
      expect(Object.keys(issued).sort()).toEqual(["api_key", "key_id", "label", "workspace_id"]);
      expect(issued.workspace_id).toBe(workspace_id);
      expect(issued.api_key).toMatch(/^vr_live_[0-9A-Za-z]{32}$/);
      expect(issued.label).toBe("recovery");

      const usage = await call(server.url, "GET", "/v1/usage", { key: issued.api_key });
      expect(usage.status).toBe(200);
      expect(usage.body.plan.id).toBe("free");
      // Stored as the API stores its keys: listed with the API's mask, never in full.
      const keys = await call(server.url, "GET", "/v1/keys", { key: issued.api_key });
      expect(keys.status).toBe(200);
      const listedKey = (keys.body.data as { id: string; label: string; masked_key: string }[]).find(
        (key) => key.id === issued.key_id,
      );
      expect(listedKey).toEqual(
        expect.objectContaining({ label: "recovery", masked_key: `vr_live_****${issued.api_key.slice(-4)}` }),
      );
      expect(keys.text).not.toContain(issued.api_key);

      // The operator went past the plan's allowance; the API still holds to it, and the lost keys can go.
      const third = await call(server.url, "POST", "/v1/keys", { key: issued.api_key, body: {} });
      expect(third.status).toBe(403);
      expect(third.body.error.code).toBe("plan_limit");
      const lostId = (keys.body.data as { id: string; label: string }[]).find(
        (key) => key.label === "First key",
      )?.id;
      expect((await call(server.url, "DELETE", `/v1/keys/${lostId}`, { key: issued.api_key })).status).toBe(
        204,
      );
      expect((await call(server.url, "GET", "/v1/usage", { key: lost })).status).toBe(401);

      const listed = JSON.parse(await succeed(["workspace", "list", "--json"], env)) as ListedWorkspace[];
      expect(listed.find((w) => w.workspace_id === workspace_id)?.active_keys).toBe(2);
    });

    it("prints the new key as text, with a default label", async () => {
      const env = await freshEnv();
      const { workspace_id } = await create(env, "x", "pro");
      const printed = await succeed(["workspace", "new-key", workspace_id], env);
      expect(printed).toMatch(
        new RegExp(
          `^New API key key_\\w+ for workspace ${workspace_id}, shown this once: vr_live_[0-9A-Za-z]{32}\\n$`,
        ),
      );
      const listed = JSON.parse(await succeed(["workspace", "list", "--json"], env)) as ListedWorkspace[];
      expect(listed[0]?.active_keys).toBe(2);
    });

    it("refuses an unknown workspace id with exit 1, a message naming it, and no key written", async () => {
      const env = await freshEnv();
      const { workspace_id } = await create(env, "x", "pro");
      const result = await runCli(["workspace", "new-key", "ws_01m81x7wcfaeen6pj658a749e7", "--json"], env);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /^vidrows: No workspace ws_01m81x7wcfaeen6pj658a749e7\.\n.*workspace list/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const listed = JSON.parse(await succeed(["workspace", "list", "--json"], env)) as ListedWorkspace[];
      expect(listed.map((w) => [w.workspace_id, w.active_keys])).toEqual([[workspace_id, 1]]);
    });
  });
}
