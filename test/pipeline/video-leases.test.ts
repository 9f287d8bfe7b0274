// Video leases: a claim takes videos for one worker, a renewal extends only the leases the worker still holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPlanTable } from "../../src/domain/plans.js";
import { claimVideos, renewLeases } from "../../src/pipeline/claims.js";
import { settleVideos } from "../../src/pipeline/settlement.js";
import { createServices } from "../../src/app/services.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

const plans = loadPlanTable(undefined);
const leaseMs = 60_000;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`video leases on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: OpenedStore;
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
      const services = createServices(store, plans, true);
      const { apiKey } = await services.workspaces.create("leases", "pro");
      const caller = await services.accessCheck.identify(apiKey);
      if (!caller) throw new Error("the new key did not identify its workspace");
      await services.jobSubmission.submit(caller, {
        videos: ["aaaaaaaaaaa", "bbbbbbbbbbb", "ccccccccccc", "ddddddddddd"],
        schema: { columns: ["product"] },
      });
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it("a renewal extends the held leases and leaves out the videos taken over or settled", async () => {
      const now = Date.now();
      const mine = await claimVideos(store, "wrk_mine", 3, leaseMs, now);
      expect(mine).toHaveLength(3);
      const [kept, settled, lapsed] = mine.map((video) => video.rowId) as [string, string, string];

      // One video settles; another's lease runs out and a second worker takes it over.
      const [done] = await settleVideos(
        store,
        plans,
        "wrk_mine",
        [
          {
            video: mine[1] as (typeof mine)[number],
            outcome: { kind: "done", rows: [], sources: [], durationSeconds: 30, chunkCount: 1 },
          },
        ],
        now,
      );
      expect(done?.kind).toBe("settled");
      await store.db
        .updateTable("videos")
        .set({ lease_expires_at: now - 1 })
        .where("id", "=", lapsed)
        .execute();
      const taken = await claimVideos(store, "wrk_other", 1, leaseMs, now);
      expect(taken.map((video) => video.rowId)).toEqual([lapsed]);

      const later = now + 10_000;
      const held = await renewLeases(store, "wrk_mine", [kept, settled, lapsed], leaseMs, later);
      expect([...held]).toEqual([kept]);
      const rows = await store.db
        .selectFrom("videos")
        .select(["id", "status", "lease_owner", "lease_expires_at"])
        .where("id", "in", [kept, settled, lapsed])
        .execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(Number(byId.get(kept)?.lease_expires_at)).toBe(later + leaseMs);
      // The other worker's lease is left as its claim set it.
      expect(byId.get(lapsed)?.lease_owner).toBe("wrk_other");
      expect(Number(byId.get(lapsed)?.lease_expires_at)).toBe(now + leaseMs);
      expect(byId.get(settled)).toMatchObject({ status: "done", lease_owner: null });
    });

    it("renewing nothing touches nothing", async () => {
      expect((await renewLeases(store, "wrk_mine", [], leaseMs)).size).toBe(0);
    });
  });
}
