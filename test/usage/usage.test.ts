// `/v1/usage`: the usage object of a fresh workspace, and setting and clearing `hard_cap` with PATCH.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMonths } from "../../src/domain/billing-cycle.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { startTestServer, type TestServer, testPlans } from "../support/test-server.js";

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const dayMs = 86_400_000;

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) as Unix milliseconds. */
function parseTimestamp(value: string): number {
  return Date.parse(`${value.replace(" ", "T")}Z`);
}

function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Usage on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("reports every field for a fresh workspace, with the plan's figures and zero activity", async () => {
      const { key } = await server.workspace("pro");
      const before = Date.now();
      const usage = await server.call("GET", "/v1/usage", { key });
      const after = Date.now();
      expect(usage.status).toBe(200);
      const body = usage.body;
      expect(Object.keys(body).sort()).toEqual([
        "credits",
        "cycle",
        "daily",
        "failures_by_code",
        "jobs",
        "plan",
        "videos_processed",
      ]);
      expect(body.credits).toEqual({
        balance: testPlans.pro.cycle_allowance,
        used_this_cycle: 0,
        cycle_allowance: testPlans.pro.cycle_allowance,
        hard_cap: null,
      });
      expect(body.plan).toEqual({
        id: "pro",
        name: testPlans.pro.name,
        requests_per_minute: testPlans.pro.requests_per_minute,
      });
      expect(body.jobs).toEqual({ queued: 0, processing: 0, done: 0, failed: 0, total: 0 });
      expect(body.videos_processed).toBe(0);
      expect(body.failures_by_code).toEqual({});

      // The cycle began when the workspace was created, and ends one calendar month later.
      expect(Object.keys(body.cycle).sort()).toEqual(["ends_at", "started_at"]);
      expect(body.cycle.started_at).toMatch(timestamp);
      expect(body.cycle.ends_at).toMatch(timestamp);
      const started = parseTimestamp(body.cycle.started_at);
      expect(started).toBeLessThanOrEqual(after);
      expect(started).toBeGreaterThan(before - 60_000);
      expect(body.cycle.ends_at).toBe(formatTimestamp(addMonths(started, 1)));

      // Exactly 14 days, oldest first, consecutive, ending today (UTC), all without spend.
      expect(body.daily).toHaveLength(14);
      for (const entry of body.daily) {
        expect(Object.keys(entry).sort()).toEqual(["credits", "date"]);
        expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(entry.credits).toBe(0);
      }
      const dates: string[] = body.daily.map((d: { date: string }) => d.date);
      // Midnight may fall between the request and the clock readings around it.
      expect([utcDay(before), utcDay(after)]).toContain(dates[13]);
      const last = Date.parse(`${dates[13]}T00:00:00Z`);
      expect(dates).toEqual(Array.from({ length: 14 }, (_, i) => utcDay(last - (13 - i) * dayMs)));
    });

    it("reports the Free plan's own figures for a Free workspace", async () => {
      const { key } = await server.workspace("free");
      const usage = await server.call("GET", "/v1/usage", { key });
      expect(usage.status).toBe(200);
      expect(usage.body.credits.balance).toBe(testPlans.free.cycle_allowance);
      expect(usage.body.credits.cycle_allowance).toBe(testPlans.free.cycle_allowance);
      expect(usage.body.plan).toEqual({
        id: "free",
        name: "Free",
        requests_per_minute: testPlans.free.requests_per_minute,
      });
    });

    it("sets hard_cap, answers the usage object, and clears it with null", async () => {
      const { key } = await server.workspace();
      const set = await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: 250 } });
      expect(set.status).toBe(200);
      expect(set.body.credits.hard_cap).toBe(250);
      expect(set.body.credits.balance).toBe(testPlans.pro.cycle_allowance);
      expect(set.body.daily).toHaveLength(14);
      const read = await server.call("GET", "/v1/usage", { key });
      expect(read.body.credits.hard_cap).toBe(250);

      const zero = await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: 0 } });
      expect(zero.status).toBe(200);
      expect(zero.body.credits.hard_cap).toBe(0);

      const cleared = await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: null } });
      expect(cleared.status).toBe(200);
      expect(cleared.body.credits.hard_cap).toBeNull();
      expect((await server.call("GET", "/v1/usage", { key })).body.credits.hard_cap).toBeNull();
    });

    it("accepts the largest hard_cap allowed", async () => {
      const { key } = await server.workspace();
      const answer = await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: 1_000_000_000_000 } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.credits.hard_cap).toBe(1_000_000_000_000);
    });

    describe("validation", () => {
      const cases: [string, unknown, string][] = [
        ["a negative hard_cap", { hard_cap: -1 }, "hard_cap"],
        ["a fractional hard_cap", { hard_cap: 1.5 }, "hard_cap"],
        ["a hard_cap given as a string", { hard_cap: "5" }, "hard_cap"],
        ["a hard_cap over the maximum", { hard_cap: 1_000_000_000_001 }, "hard_cap"],
        ["a body without hard_cap", {}, "hard_cap"],
        ["an unknown field", { hard_cap: 5, soft_cap: 3 }, "soft_cap"],
      ];
      for (const [title, body, param] of cases) {
        it(`refuses ${title} and changes nothing`, async () => {
          const { key } = await server.workspace();
          await server.call("PATCH", "/v1/usage", { key, body: { hard_cap: 42 } });
          const answer = await server.call("PATCH", "/v1/usage", { key, body });
          expect(answer.status, answer.text).toBe(400);
          expect(answer.body.error.code).toBe("invalid_request");
          expect(answer.body.error.param).toBe(param);
          expect(answer.body.error.message.length).toBeGreaterThan(10);
          expect((await server.call("GET", "/v1/usage", { key })).body.credits.hard_cap).toBe(42);
        });
      }
    });

    it("keeps each workspace's usage to itself", async () => {
      const mine = await server.workspace("pro");
      const theirs = await server.workspace("free");
      await server.call("PATCH", "/v1/usage", { key: mine.key, body: { hard_cap: 7 } });
      const theirUsage = await server.call("GET", "/v1/usage", { key: theirs.key });
      expect(theirUsage.body.credits.hard_cap).toBeNull();
      expect(theirUsage.body.plan.id).toBe("free");
      const myUsage = await server.call("GET", "/v1/usage", { key: mine.key });
      expect(myUsage.body.credits.hard_cap).toBe(7);
      expect(myUsage.body.plan.id).toBe("pro");
    });

    it("reflects credits granted to the workspace and a plan change", async () => {
      const { workspaceId, key } = await server.workspace("free");
      await server.app.services.workspaces.grantCredits(workspaceId, 30);
      let usage = await server.call("GET", "/v1/usage", { key });
      expect(usage.body.credits.balance).toBe(testPlans.free.cycle_allowance + 30);
      await server.app.services.workspaces.setPlan(workspaceId, "scale");
      usage = await server.call("GET", "/v1/usage", { key });
      expect(usage.body.plan.id).toBe("scale");
      expect(usage.body.credits.cycle_allowance).toBe(testPlans.scale.cycle_allowance);
      expect(usage.body.credits.balance).toBe(testPlans.scale.cycle_allowance);
    });

    it("names the new cycle once the old one has ended, with nothing written in between", async () => {
      const { workspaceId } = await server.workspace("pro");
      const created = await server.app.store.db
        .selectFrom("workspaces")
        .select("created_at")
        .where("id", "=", workspaceId)
        .executeTakeFirstOrThrow();
      const cycleEnd = addMonths(Number(created.created_at), 1);
      // A millisecond either side: the same UTC day (the cycle's end is creation's time of day), so
      // only the cycle's end can tell the two answers apart.
      const [before, after] = [cycleEnd - 1, cycleEnd + 1];
      const usage = server.app.services.usage;
      const plan = server.app.config.plans.get("pro");
      if (!plan) throw new Error("The test plans have no pro plan.");
      const context = { workspaceId, plan, readStamp: undefined };
      const inOldCycle = await usage.get(context, before);
      expect(await usage.get(context, before)).toEqual(inOldCycle);
      const inNewCycle = await usage.get(context, after);
      expect(inOldCycle.cycle.ends_at).toBe(formatTimestamp(cycleEnd));
      expect(inNewCycle.cycle.started_at).toBe(formatTimestamp(cycleEnd));
    });

    it("answers 401 without a key on GET and PATCH", async () => {
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { hard_cap: 1 }],
      ] as const) {
        const answer = await server.call(method, "/v1/usage", { body });
        expect(answer.status).toBe(401);
        expect(answer.body.error.code).toBe("unauthorized");
      }
    });
  });
}
