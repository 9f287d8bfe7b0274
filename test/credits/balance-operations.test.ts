// The credits module's operations on a balance: ledger, grants, plan changes, cycles, hard cap, reservation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerLines, workspaceRow } from "../support/books.js";
import { renewCycleIfDue } from "../../src/credits/cycles.js";
import { grantCredits } from "../../src/credits/grants.js";
import { setHardCap } from "../../src/credits/hard-cap.js";
import { recordCreditEntries } from "../../src/credits/ledger.js";
import { changePlan } from "../../src/credits/plan-changes.js";
import { reserveForJob } from "../../src/credits/reservation.js";
import { type Plan, parsePlanTable } from "../../src/domain/plans.js";
import { createServices, type Services } from "../../src/app/services.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import type { Database } from "../../src/store/tables.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { testPlans } from "../support/test-server.js";
import type { Transaction } from "kysely";

const plans = parsePlanTable(testPlans, "test plans");
const free = plans.get("free") as Plan;
const pro = plans.get("pro") as Plan;
// Created on 31 January: the next cycle starts on 28 February (clamped).
const created = Date.UTC(2025, 0, 31, 12, 0, 0);
const februaryRenewal = Date.UTC(2025, 1, 28, 12, 0, 0);

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`credits on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: OpenedStore;
    let services: Services;
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
      services = createServices(store, plans);
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    const inTransaction = <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
      store.db.transaction().execute(work);

    const ledger = (workspaceId: string) => ledgerLines(store, workspaceId);

    const row = (workspaceId: string) => workspaceRow(store, workspaceId);

    let made = 0;
    async function workspace(plan: string, figures: { balance?: number; used_this_cycle?: number } = {}) {
      const { workspaceId } = await services.workspaces.create(`credits-${++made}`, plan, created);
      if (Object.keys(figures).length > 0) {
        await store.db.updateTable("workspaces").set(figures).where("id", "=", workspaceId).execute();
      }
      return workspaceId;
    }

    it("writes every ledger entry given, in one call, and nothing for none", async () => {
      const workspaceId = await workspace("free");
      await recordCreditEntries(store.db, [], created + 1);
      await recordCreditEntries(
        store.db,
        [
          { workspaceId, kind: "charge", amount: -2, balanceAfter: 98 },
          { workspaceId, kind: "charge", amount: -1, balanceAfter: 97 },
        ],
        created + 2,
      );
      // Both lines share a millisecond, so their ids do not order them: by balance, highest first.
      const lines = (await ledger(workspaceId)).slice(1).sort((a, b) => b.balance_after - a.balance_after);
      expect(lines.map((l) => [l.kind, l.amount, l.balance_after])).toEqual([
        ["charge", -2, 98],
        ["charge", -1, 97],
      ]);
    });

    it("a grant adds to the balance and writes one ledger line with the balance after", async () => {
      const workspaceId = await workspace("free");
      const after = await inTransaction((trx) => grantCredits(trx, workspaceId, 25, created + 1));
      expect(after?.balance).toBe(free.cycleAllowance + 25);
      expect(await ledger(workspaceId)).toEqual([
        { kind: "initial", amount: free.cycleAllowance, balance_after: free.cycleAllowance },
        { kind: "grant", amount: 25, balance_after: free.cycleAllowance + 25 },
      ]);
      expect(await inTransaction((trx) => grantCredits(trx, "ws_missing", 5, created + 2))).toBeUndefined();
    });

    it("a plan change raises the balance to a bigger allowance, with a ledger line; a smaller one writes none", async () => {
      const workspaceId = await workspace("free");
      const up = await inTransaction((trx) => changePlan(trx, workspaceId, pro, created + 1));
      expect(up).toMatchObject({ plan_id: "pro", balance: pro.cycleAllowance });
      const down = await inTransaction((trx) => changePlan(trx, workspaceId, free, created + 2));
      expect(down).toMatchObject({ plan_id: "free", balance: pro.cycleAllowance });
      expect((await ledger(workspaceId)).slice(1)).toEqual([
        {
          kind: "plan_change",
          amount: pro.cycleAllowance - free.cycleAllowance,
          balance_after: pro.cycleAllowance,
        },
      ]);
      expect(await inTransaction((trx) => changePlan(trx, "ws_missing", pro, created))).toBeUndefined();
    });

    it("a renewal clears the cycle's usage and tops the balance up, once, with a cycle_reset line", async () => {
      const workspaceId = await workspace("pro", { balance: 300, used_this_cycle: 9700 });
      const early = await inTransaction((trx) => renewCycleIfDue(trx, workspaceId, pro, februaryRenewal - 1));
      expect(early).toMatchObject({ balance: 300, used_this_cycle: 9700, cycle_started_at: created });
      const renewed = await inTransaction((trx) => renewCycleIfDue(trx, workspaceId, pro, februaryRenewal));
      expect(renewed).toMatchObject({
        balance: pro.cycleAllowance,
        used_this_cycle: 0,
        cycle_started_at: februaryRenewal,
      });
      await inTransaction((trx) => renewCycleIfDue(trx, workspaceId, pro, februaryRenewal + 1000));
      expect((await ledger(workspaceId)).slice(1)).toEqual([
        { kind: "cycle_reset", amount: pro.cycleAllowance - 300, balance_after: pro.cycleAllowance },
      ]);
    });

    it("sets and clears the hard cap", async () => {
      const workspaceId = await workspace("free");
      await setHardCap(store.db, workspaceId, 40);
      expect((await row(workspaceId)).hard_cap).toBe(40);
      await setHardCap(store.db, workspaceId, null);
      expect((await row(workspaceId)).hard_cap).toBeNull();
    });

    describe("a submission's reservation", () => {
      const reserve = (workspaceId: string, count: number, now: number, plan = pro) =>
        inTransaction((trx) => reserveForJob(store.db, trx, { workspaceId, plan }, count, now));

      it("counts the job queued and takes its places in the fair queue, one job after another", async () => {
        const workspaceId = await workspace("pro");
        const first = await reserve(workspaceId, 2, created + 1);
        const second = await reserve(workspaceId, 3, created + 2);
        expect(second - first).toBe(2);
        expect(await row(workspaceId)).toMatchObject({ jobs_queued: 2, next_video_priority: first + 5 });
      });

      it("refuses a balance of 0 and a cycle at its hard cap, counting nothing", async () => {
        const broke = await workspace("pro", { balance: 0 });
        await expect(reserve(broke, 1, created + 1)).rejects.toMatchObject({ code: "insufficient_credits" });
        const capped = await workspace("pro", { used_this_cycle: 5 });
        await setHardCap(store.db, capped, 5);
        await expect(reserve(capped, 1, created + 1)).rejects.toMatchObject({ code: "hard_cap_reached" });
        expect(await row(broke)).toMatchObject({ jobs_queued: 0 });
        expect(await row(capped)).toMatchObject({ jobs_queued: 0 });
      });

      it("starts a due cycle that refills a refused balance, then reserves", async () => {
        const workspaceId = await workspace("pro", { balance: 0, used_this_cycle: pro.cycleAllowance });
        await reserve(workspaceId, 1, februaryRenewal + 1);
        expect(await row(workspaceId)).toMatchObject({
          jobs_queued: 1,
          balance: pro.cycleAllowance,
          used_this_cycle: 0,
          cycle_started_at: februaryRenewal,
        });
        expect((await ledger(workspaceId)).at(-1)).toEqual({
          kind: "cycle_reset",
          amount: pro.cycleAllowance,
          balance_after: pro.cycleAllowance,
        });
      });

      it("starts a due cycle after a reservation that passed on the old cycle's figures", async () => {
        const workspaceId = await workspace("pro", { balance: 10, used_this_cycle: 9990 });
        await reserve(workspaceId, 1, februaryRenewal + 1);
        expect(await row(workspaceId)).toMatchObject({
          jobs_queued: 1,
          balance: pro.cycleAllowance,
          used_this_cycle: 0,
        });
      });
    });
  });
}
