// The credits a settled batch takes and the usage counters it moves, and the counters a claim moves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerLines, workspaceRow } from "../support/books.js";
import {
  type BatchAccount,
  countJobSettled,
  countJobsFirstFailure,
  countVideoDone,
  countVideoFailed,
  openBatchAccounts,
  settledBatchCharges,
  priceVideo,
} from "../../src/credits/settlement-charges.js";
import { countJobsStarted } from "../../src/credits/usage-counters.js";
import { parsePlanTable } from "../../src/domain/plans.js";
import { utcDay } from "../../src/domain/timestamps.js";
import { createServices, type Services } from "../../src/app/services.js";
import { runWrites } from "../../src/store/combined-writes.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { testPlans } from "../support/test-server.js";

const plans = parsePlanTable(testPlans, "test plans");
const proAllowance = testPlans.pro.cycle_allowance;
const created = Date.UTC(2025, 0, 31, 12, 0, 0);
const februaryRenewal = Date.UTC(2025, 1, 28, 12, 0, 0);

function account(figures: Partial<BatchAccount>): BatchAccount {
  return {
    workspaceId: "ws_pure",
    hardCap: null,
    transcriptionCreditsPerMinute: 2,
    balance: 100,
    usedThisCycle: 0,
    charged: 0,
    videosProcessed: 0,
    ledger: [],
    failures: new Map(),
    jobsWithFailures: 0,
    jobsSettled: 0,
    jobsDone: 0,
    ...figures,
  };
}

describe("pricing a finished video against a batch's account", () => {
  it("charges a credit per started minute when the account can pay", () => {
    expect(priceVideo(account({}), 90)).toEqual({ charge: 2 });
  });

  it("refuses what would take the cycle past its hard cap, before looking at the balance", () => {
    const refused = priceVideo(account({ hardCap: 5, usedThisCycle: 4, balance: 0 }), 90);
    expect(refused).toMatchObject({ refusal: { code: "hard_cap_reached" } });
  });

  it("refuses what the balance cannot pay, as the batch's earlier charges left it", () => {
    const batch = account({ balance: 3 });
    countVideoDone(batch, 2);
    expect(batch).toMatchObject({ balance: 1, usedThisCycle: 2, charged: 2, videosProcessed: 1 });
    expect(priceVideo(batch, 90)).toEqual({
      refusal: { code: "insufficient_credits", message: "This video costs 2 credits; the balance was 1." },
    });
  });
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`settlement charges on ${dialectTitle(dialect)}`, () => {
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

    const row = (workspaceId: string) => workspaceRow(store, workspaceId);

    const ledger = (workspaceId: string) => ledgerLines(store, workspaceId);

    it("charges a batch: balance, usage, counters, daily credits, failures and a ledger line per video", async () => {
      const { workspaceId } = await services.workspaces.create("charged", "pro", created);
      await store.db
        .updateTable("workspaces")
        .set({ jobs_processing: 2 })
        .where("id", "=", workspaceId)
        .execute();
      const now = created + 60_000;
      // Read before the transaction: on SQLite the store's one connection is the transaction's.
      const locked = await row(workspaceId);
      await store.db.transaction().execute(async (trx) => {
        const accounts = await openBatchAccounts(trx, plans, [locked], now);
        const batch = accounts.get(workspaceId) as BatchAccount;
        countVideoDone(batch, 2);
        countVideoDone(batch, 1);
        countVideoFailed(batch, "no_captions");
        countJobsFirstFailure(batch);
        countJobSettled(batch, 0);
        countJobSettled(batch, 1);
        await runWrites(store, trx, settledBatchCharges(store.db, [...accounts.values()], now));
      });
      expect(await row(workspaceId)).toMatchObject({
        balance: proAllowance - 3,
        used_this_cycle: 3,
        videos_processed: 2,
        jobs_processing: 0,
        jobs_done: 1,
        jobs_failed: 1,
        jobs_with_failures: 1,
      });
      // Lines of one batch share a millisecond, so their ids do not order them: by balance, highest first.
      const lines = (await ledger(workspaceId)).slice(1);
      expect(lines.sort((a, b) => Number(b.balance_after) - Number(a.balance_after))).toEqual([
        { kind: "charge", amount: -2, balance_after: proAllowance - 2 },
        { kind: "charge", amount: -1, balance_after: proAllowance - 3 },
      ]);
      const failures = await store.db
        .selectFrom("failure_counts")
        .select(["code", "count"])
        .where("workspace_id", "=", workspaceId)
        .execute();
      expect(failures.map((f) => [f.code, Number(f.count)])).toEqual([["no_captions", 1]]);

      // A second batch the same day adds to the day's credits.
      const charged = await row(workspaceId);
      await store.db.transaction().execute(async (trx) => {
        const accounts = await openBatchAccounts(trx, plans, [charged], now + 1);
        countVideoDone(accounts.get(workspaceId) as BatchAccount, 4);
        await runWrites(store, trx, settledBatchCharges(store.db, [...accounts.values()], now + 1));
      });
      const daily = await store.db
        .selectFrom("daily_credits")
        .select(["day", "credits"])
        .where("workspace_id", "=", workspaceId)
        .execute();
      expect(daily.map((d) => [d.day, Number(d.credits)])).toEqual([[utcDay(now), 7]]);
    });

    it("writes nothing for a batch that charged and settled nothing", async () => {
      const { workspaceId } = await services.workspaces.create("idle", "pro", created);
      const before = await row(workspaceId);
      await store.db.transaction().execute(async (trx) => {
        const accounts = await openBatchAccounts(trx, plans, [before], created + 1);
        await runWrites(store, trx, settledBatchCharges(store.db, [...accounts.values()], created + 1));
      });
      expect(await row(workspaceId)).toEqual(before);
      expect(await ledger(workspaceId)).toHaveLength(1);
    });

    it("opens a batch's account on the new cycle when one is due", async () => {
      const { workspaceId } = await services.workspaces.create("renewing", "pro", created);
      await store.db
        .updateTable("workspaces")
        .set({ balance: 1, used_this_cycle: proAllowance - 1 })
        .where("id", "=", workspaceId)
        .execute();
      const spent = await row(workspaceId);
      const accounts = await store.db
        .transaction()
        .execute((trx) => openBatchAccounts(trx, plans, [spent], februaryRenewal));
      expect(accounts.get(workspaceId)).toMatchObject({ balance: proAllowance, usedThisCycle: 0 });
      expect((await ledger(workspaceId)).at(-1)).toEqual({
        kind: "cycle_reset",
        amount: proAllowance - 1,
        balance_after: proAllowance,
      });
    });

    it("moves started jobs from queued to processing", async () => {
      const { workspaceId } = await services.workspaces.create("started", "pro", created);
      await store.db
        .updateTable("workspaces")
        .set({ jobs_queued: 3 })
        .where("id", "=", workspaceId)
        .execute();
      await store.db.transaction().execute((trx) => countJobsStarted(trx, workspaceId, 2));
      expect(await row(workspaceId)).toMatchObject({ jobs_queued: 1, jobs_processing: 2 });
    });
  });
}
