// Workspaces and their credits at the service level: creation, grants, plan changes, cycles, bootstrap.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ledgerLines, workspaceRow } from "../support/books.js";
import { parsePlanTable } from "../../src/domain/plans.js";
import { createServices, type Services } from "../../src/app/services.js";
import {
  UnknownPlanError,
  UnknownWorkspaceError,
  WorkspaceNameTakenError,
} from "../../src/workspaces/workspaces.js";
import * as uniqueWorkspaceNames from "../../src/store/migrations/0007_unique_workspace_names.js";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { testPlans } from "../support/test-server.js";

const plans = parsePlanTable(testPlans, "test plans");
const free = testPlans.free.cycle_allowance;
const pro = testPlans.pro.cycle_allowance;
const scale = testPlans.scale.cycle_allowance;
// Ledger lines are read back in id order, which is time order only between different milliseconds.
const t0 = Date.UTC(2025, 5, 1);

interface Opened {
  store: Store;
  services: Services;
  close(): Promise<void>;
}

async function open(dialect: "sqlite" | "postgres", planTable = plans): Promise<Opened> {
  const database: FreshDatabase = await freshDatabase(dialect);
  const store = openStore(database.target);
  await migrateToLatest(store);
  return {
    store,
    services: createServices(store, planTable),
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Workspaces on ${dialectTitle(dialect)}`, () => {
    let opened: Opened;
    let store: Store;
    let services: Services;
    beforeAll(async () => {
      opened = await open(dialect.name);
      store = opened.store;
      services = opened.services;
    });
    afterAll(async () => {
      await opened?.close();
    });

    const ledger = (workspaceId: string) => ledgerLines(store, workspaceId);

    const row = (workspaceId: string) => workspaceRow(store, workspaceId);

    describe("creation", () => {
      it("refuses a second workspace of the same name and makes nothing for it", async () => {
        await services.workspaces.create("only-one", "free");
        await expect(services.workspaces.create("only-one", "pro")).rejects.toBeInstanceOf(
          WorkspaceNameTakenError,
        );
        await expect(services.workspaces.create("only-one", "pro")).rejects.toThrow(
          /"only-one" exists already.*Pick another name/,
        );
        const named = await store.db
          .selectFrom("workspaces")
          .select("id")
          .where("name", "=", "only-one")
          .execute();
        expect(named).toHaveLength(1);
      });

      it("gives, on migrating an older database, every workspace but the oldest of a name its id", async () => {
        const ids = [];
        for (const name of ["twin-a", "twin-b", "twin-c"]) {
          ids.push((await services.workspaces.create(name, "free")).workspaceId);
        }
        await uniqueWorkspaceNames.down(store.db);
        await store.db.updateTable("workspaces").set({ name: "twin" }).where("id", "in", ids).execute();
        await uniqueWorkspaceNames.up(store.db);
        const names = await store.db
          .selectFrom("workspaces")
          .select(["id", "name"])
          .where("id", "in", ids)
          .orderBy("id")
          .execute();
        // Ids are time-ordered: the smallest is the oldest (made in the same millisecond, any order will do).
        expect(names.map((w) => w.name)).toEqual([
          "twin",
          `twin (${names[1]?.id})`,
          `twin (${names[2]?.id})`,
        ]);
        await expect(services.workspaces.create("twin", "free")).rejects.toBeInstanceOf(
          WorkspaceNameTakenError,
        );
      });

      it("starts a workspace with the plan's allowance, a ledger line for it, and a working first key", async () => {
        const now = Date.UTC(2025, 4, 10, 8, 30);
        const created = await services.workspaces.create("acme", "pro", now);
        expect(created.workspaceId).toMatch(/^ws_/);
        expect(created.apiKey).toMatch(/^vr_live_[0-9A-Za-z]{32}$/);
        const workspace = await row(created.workspaceId);
        expect(workspace).toMatchObject({
          name: "acme",
          plan_id: "pro",
          balance: pro,
          used_this_cycle: 0,
          hard_cap: null,
          created_at: now,
          cycle_started_at: now,
        });
        expect(await ledger(created.workspaceId)).toEqual([
          { kind: "initial", amount: pro, balance_after: pro },
        ]);
        const caller = await services.accessCheck.identify(created.apiKey);
        expect(caller?.workspaceId).toBe(created.workspaceId);
      });

      it("refuses an unknown plan and creates nothing", async () => {
        const before = await store.db.selectFrom("workspaces").select("id").execute();
        await expect(services.workspaces.create("x", "platinum")).rejects.toBeInstanceOf(UnknownPlanError);
        await expect(services.workspaces.create("x", "platinum")).rejects.toThrow(
          /platinum.*free, pro, scale/,
        );
        expect(await store.db.selectFrom("workspaces").select("id").execute()).toHaveLength(before.length);
      });
    });

    describe("grants", () => {
      it("adds granted credits to the balance and records each grant", async () => {
        const { workspaceId } = await services.workspaces.create("g", "free", t0);
        const first = await services.workspaces.grantCredits(workspaceId, 25, t0 + 1);
        expect(first.balance).toBe(free + 25);
        const second = await services.workspaces.grantCredits(workspaceId, 5, t0 + 2);
        expect(second.balance).toBe(free + 30);
        expect((await ledger(workspaceId)).slice(1)).toEqual([
          { kind: "grant", amount: 25, balance_after: free + 25 },
          { kind: "grant", amount: 5, balance_after: free + 30 },
        ]);
      });

      it("carries granted credits over into the next cycle", async () => {
        const created = Date.UTC(2025, 0, 15);
        const { workspaceId } = await services.workspaces.create("carry", "free", created);
        await services.workspaces.grantCredits(workspaceId, 40, created + 1000);
        const renewed = await services.workspaces.current(workspaceId, Date.UTC(2025, 1, 15));
        expect(renewed.balance).toBe(free + 40);
        expect(renewed.cycle_started_at).toBe(Date.UTC(2025, 1, 15));
      });

      it("adds concurrent grants without losing one", async () => {
        const { workspaceId } = await services.workspaces.create("many", "free");
        await Promise.all(Array.from({ length: 6 }, () => services.workspaces.grantCredits(workspaceId, 10)));
        expect((await row(workspaceId)).balance).toBe(free + 60);
      });

      it("refuses an unknown workspace", async () => {
        await expect(services.workspaces.grantCredits("ws_missing", 10)).rejects.toBeInstanceOf(
          UnknownWorkspaceError,
        );
      });
    });

    describe("plan changes", () => {
      it("moves to a bigger plan and raises the balance to its allowance", async () => {
        const { workspaceId } = await services.workspaces.create("up", "free", t0);
        const after = await services.workspaces.setPlan(workspaceId, "scale", t0 + 1);
        expect(after.plan_id).toBe("scale");
        expect(after.balance).toBe(scale);
        expect((await ledger(workspaceId)).at(-1)).toEqual({
          kind: "plan_change",
          amount: scale - free,
          balance_after: scale,
        });
      });

      it("moves to a smaller plan without lowering the balance or writing a ledger line", async () => {
        const { workspaceId } = await services.workspaces.create("down", "pro");
        const after = await services.workspaces.setPlan(workspaceId, "free");
        expect(after.plan_id).toBe("free");
        expect(after.balance).toBe(pro);
        expect(await ledger(workspaceId)).toHaveLength(1);
      });

      it("keeps a balance above the new allowance when upgrading", async () => {
        const { workspaceId } = await services.workspaces.create("rich", "free");
        await services.workspaces.grantCredits(workspaceId, pro);
        const after = await services.workspaces.setPlan(workspaceId, "pro");
        expect(after.balance).toBe(free + pro);
      });

      it("refuses an unknown plan and an unknown workspace, changing nothing", async () => {
        const { workspaceId } = await services.workspaces.create("same", "free");
        await expect(services.workspaces.setPlan(workspaceId, "gold")).rejects.toBeInstanceOf(
          UnknownPlanError,
        );
        await expect(services.workspaces.setPlan("ws_missing", "pro")).rejects.toBeInstanceOf(
          UnknownWorkspaceError,
        );
        expect(await row(workspaceId)).toMatchObject({ plan_id: "free", balance: free });
      });
    });

    describe("cycles", () => {
      // Created on 31 January: the next cycle starts on 28 February (clamped), the one after on 31 March.
      const created = Date.UTC(2025, 0, 31, 12, 0, 0);
      const februaryRenewal = Date.UTC(2025, 1, 28, 12, 0, 0);

      let cycling = 0;
      async function workspaceWithSpend(plan: string, balance: number, used: number) {
        const { workspaceId } = await services.workspaces.create(`cycling-${++cycling}`, plan, created);
        await store.db
          .updateTable("workspaces")
          .set({ balance, used_this_cycle: used })
          .where("id", "=", workspaceId)
          .execute();
        return workspaceId;
      }

      it("keeps the cycle until its last millisecond", async () => {
        const workspaceId = await workspaceWithSpend("pro", 300, 9700);
        const current = await services.workspaces.current(workspaceId, februaryRenewal - 1);
        expect(current).toMatchObject({ balance: 300, used_this_cycle: 9700, cycle_started_at: created });
        expect(await ledger(workspaceId)).toHaveLength(1);
      });

      it("renews at the cycle's end: used back to 0 and the balance raised to the allowance", async () => {
        const workspaceId = await workspaceWithSpend("pro", 300, 9700);
        const current = await services.workspaces.current(workspaceId, februaryRenewal);
        expect(current).toMatchObject({
          balance: pro,
          used_this_cycle: 0,
          cycle_started_at: februaryRenewal,
        });
        expect((await ledger(workspaceId)).at(-1)).toEqual({
          kind: "cycle_reset",
          amount: pro - 300,
          balance_after: pro,
        });
        // Stored, not only answered.
        expect(await row(workspaceId)).toMatchObject({ balance: pro, used_this_cycle: 0 });
      });

      it("keeps a balance above the allowance at renewal", async () => {
        const workspaceId = await workspaceWithSpend("free", free + 500, 80);
        const current = await services.workspaces.current(workspaceId, februaryRenewal + 3600_000);
        expect(current).toMatchObject({
          balance: free + 500,
          used_this_cycle: 0,
          cycle_started_at: februaryRenewal,
        });
      });

      it("jumps over missed cycles to the one containing now, anchored at creation", async () => {
        const workspaceId = await workspaceWithSpend("free", 3, 97);
        // Nobody looked in February: the first look in April starts the cycle of 31 March.
        const current = await services.workspaces.current(workspaceId, Date.UTC(2025, 3, 15));
        expect(current).toMatchObject({
          balance: free,
          used_this_cycle: 0,
          cycle_started_at: Date.UTC(2025, 2, 31, 12),
        });
        expect((await ledger(workspaceId)).filter((l) => l.kind === "cycle_reset")).toHaveLength(1);
      });

      it("renews once when many readers arrive together", async () => {
        const workspaceId = await workspaceWithSpend("pro", 10, 9990);
        const rows = await Promise.all(
          Array.from({ length: 5 }, () => services.workspaces.current(workspaceId, februaryRenewal + 5)),
        );
        for (const r of rows) expect(r).toMatchObject({ balance: pro, used_this_cycle: 0 });
        const resets = (await ledger(workspaceId)).filter((l) => l.kind === "cycle_reset");
        expect(resets).toEqual([{ kind: "cycle_reset", amount: pro - 10, balance_after: pro }]);
        // A later read in the same cycle renews nothing more.
        await services.workspaces.current(workspaceId, februaryRenewal + 86_400_000);
        expect((await ledger(workspaceId)).filter((l) => l.kind === "cycle_reset")).toHaveLength(1);
      });

      it("refuses an unknown workspace", async () => {
        await expect(services.workspaces.current("ws_missing")).rejects.toBeInstanceOf(UnknownWorkspaceError);
      });
    });
  });

  describe.skipIf(dialect.skipReason !== null)(`First-start bootstrap on ${dialectTitle(dialect)}`, () => {
    const toClose: Opened[] = [];
    afterEach(async () => {
      for (const o of toClose.splice(0)) await o.close();
    });

    async function fresh(planTable = plans) {
      const o = await open(dialect.name, planTable);
      toClose.push(o);
      return o;
    }

    it("creates workspace default on plan pro once, then answers null", async () => {
      const { store, services } = await fresh();
      const first = await services.workspaces.bootstrapDefault();
      expect(first).not.toBeNull();
      expect(first?.apiKey).toMatch(/^vr_live_/);
      const workspaces = await store.db.selectFrom("workspaces").selectAll().execute();
      expect(workspaces).toHaveLength(1);
      expect(workspaces[0]).toMatchObject({
        id: first?.workspaceId,
        name: "default",
        plan_id: "pro",
        balance: pro,
      });
      expect(await services.workspaces.bootstrapDefault()).toBeNull();
      expect(await store.db.selectFrom("workspaces").select("id").execute()).toHaveLength(1);
    });

    it("creates exactly one workspace when five starts race", async () => {
      const { store, services } = await fresh();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => services.workspaces.bootstrapDefault()),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect(await store.db.selectFrom("workspaces").select("id").execute()).toHaveLength(1);
    });

    // Several stores in one process stand in for several server processes. On PostgreSQL only: SQLite's
    // driver is synchronous, so in one process a connection waiting for the write lock would block the
    // very thread that must release it. For SQLite, test/multi-process.test.ts races real processes.
    if (dialect.name === "postgres")
      it("creates exactly one workspace when five processes' stores race on one database", async () => {
        const database = await freshDatabase(dialect.name, { empty: true });
        const stores = Array.from({ length: 5 }, () => openStore(database.target));
        try {
          await Promise.all(stores.map((s) => migrateToLatest(s)));
          const results = await Promise.all(
            stores.map((s) => createServices(s, plans).workspaces.bootstrapDefault()),
          );
          expect(results.filter((r) => r !== null)).toHaveLength(1);
          const first = stores[0] as Store;
          expect(await first.db.selectFrom("workspaces").select("id").execute()).toHaveLength(1);
        } finally {
          for (const s of stores) await s.close();
          await database.drop();
        }
      });

    it("creates nothing in a database that already has a workspace", async () => {
      const { store, services } = await fresh();
      await services.workspaces.create("existing", "free");
      expect(await services.workspaces.bootstrapDefault()).toBeNull();
      expect(await store.db.selectFrom("workspaces").select("name").execute()).toEqual([
        { name: "existing" },
      ]);
    });

    it("uses the first plan of a table without pro", async () => {
      const table = parsePlanTable(
        {
          starter: { ...testPlans.free, name: "Starter", cycle_allowance: 7 },
          business: { ...testPlans.scale, name: "Business" },
        },
        "custom plans",
      );
      const { store, services } = await fresh(table);
      expect(await services.workspaces.bootstrapDefault()).not.toBeNull();
      expect(await store.db.selectFrom("workspaces").select(["plan_id", "balance"]).execute()).toEqual([
        { plan_id: "starter", balance: 7 },
      ]);
    });
  });
}
