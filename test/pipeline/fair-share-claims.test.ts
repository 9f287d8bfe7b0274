// The fair share of a claim: each place to the workspace holding the fewest videos, a cap per worker, a
// workspace alone taking every place; on both databases, through the claims the workers make.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices, type Services } from "../../src/app/services.js";
import { loadPlanTable } from "../../src/domain/plans.js";
import { type ClaimedVideo, claimVideos } from "../../src/pipeline/claims.js";
import { settleVideos } from "../../src/pipeline/settlement.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { videoIds } from "../support/worker-env.js";

const plans = loadPlanTable(undefined);
const leaseMs = 60_000;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`the fair share of claims on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: OpenedStore;
    let services: Services;
    let made = 0;

    /** A new workspace that submits one job of `count` videos; answers the workspace's id. */
    async function workspaceWithJob(count: number): Promise<string> {
      const name = `fair-${++made}`;
      const { apiKey, workspaceId } = await services.workspaces.create(name, "scale");
      const caller = await services.accessCheck.identify(apiKey);
      if (!caller) throw new Error("the new key did not identify its workspace");
      await services.jobSubmission.submit(caller, {
        videos: videoIds(`f${made}x`, count),
        schema: { columns: ["product"] },
      });
      return workspaceId;
    }

    const countBy = (claimed: readonly ClaimedVideo[]) => {
      const counts = new Map<string, number>();
      for (const video of claimed) counts.set(video.workspaceId, (counts.get(video.workspaceId) ?? 0) + 1);
      return counts;
    };

    async function settle(workerId: string, videos: readonly ClaimedVideo[]) {
      const results = await settleVideos(
        store,
        plans,
        workerId,
        videos.map((video) => ({
          video,
          outcome: { kind: "done", rows: [], sources: [], durationSeconds: 30, chunkCount: 1 } as const,
        })),
      );
      expect(results.every((result) => result.kind === "settled")).toBe(true);
    }

    /** Settles every video still held, so that each test starts from an empty set of holders. */
    async function drain() {
      for (let round = 0; round < 100; round++) {
        const held = await store.db
          .selectFrom("videos")
          .select(["id", "lease_owner"])
          .where("status", "in", ["queued", "processing"])
          .execute();
        if (held.length === 0) return;
        await store.db
          .updateTable("videos")
          .set({ lease_expires_at: 0 })
          .where("status", "=", "processing")
          .execute();
        await settle("wrk_drain", await claimVideos(store, "wrk_drain", 100, leaseMs));
      }
      throw new Error("the queue did not drain in 100 rounds");
    }

    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
      services = createServices(store, plans, true);
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it("gives a freed place to a newcomer before the videos of the workspace holding every place", async () => {
      await drain();
      const first = await workspaceWithJob(8);
      const held = await claimVideos(store, "wrk_one", 4, leaseMs);
      expect(countBy(held)).toEqual(new Map([[first, 4]]));

      const newcomer = await workspaceWithJob(1);
      // One of the first workspace's videos ends: the place it frees goes to the newcomer, although
      // the first workspace's fifth video came before it in the queue.
      await settle("wrk_one", held.slice(0, 1));
      const next = await claimVideos(store, "wrk_one", 1, leaseMs);
      expect(next.map((video) => video.workspaceId)).toEqual([newcomer]);
      // Then the first workspace's again, alone as it is.
      const after = await claimVideos(store, "wrk_one", 1, leaseMs);
      expect(after.map((video) => video.workspaceId)).toEqual([first]);
    });

    it("counts what other workers hold: the least served workspace takes the places first", async () => {
      await drain();
      const busy = await workspaceWithJob(10);
      expect(countBy(await claimVideos(store, "wrk_a", 3, leaseMs))).toEqual(new Map([[busy, 3]]));
      const some = await workspaceWithJob(10);
      // Worker b takes one of the second workspace's (it holds none, the first 3).
      expect(countBy(await claimVideos(store, "wrk_b", 1, leaseMs))).toEqual(new Map([[some, 1]]));
      const none = await workspaceWithJob(10);
      // Worker c: 4 places from holdings of 3, 1 and 0 fill the two least served up to the first's 3.
      const taken = countBy(await claimVideos(store, "wrk_c", 4, leaseMs));
      expect(taken.get(busy)).toBeUndefined();
      expect(taken.get(none)).toBeGreaterThanOrEqual(2);
      expect((taken.get(some) ?? 0) + (taken.get(none) ?? 0)).toBe(4);
    });

    it("lets a workspace alone take every place, and never more than the cap in one worker", async () => {
      await drain();
      const alone = await workspaceWithJob(12);
      expect(countBy(await claimVideos(store, "wrk_all", 5, leaseMs))).toEqual(new Map([[alone, 5]]));
      // Capped at 3 of a worker's places: a worker already holding 2 of them takes one more.
      expect(countBy(await claimVideos(store, "wrk_capped", 2, leaseMs, Date.now(), 3))).toEqual(
        new Map([[alone, 2]]),
      );
      expect(countBy(await claimVideos(store, "wrk_capped", 4, leaseMs, Date.now(), 3))).toEqual(
        new Map([[alone, 1]]),
      );
      // Another workspace's videos fill the places the cap kept open.
      const other = await workspaceWithJob(5);
      expect(countBy(await claimVideos(store, "wrk_capped", 4, leaseMs, Date.now(), 3))).toEqual(
        new Map([[other, 3]]),
      );
    });

    it("still takes over lapsed leases first, whoever's they are", async () => {
      await drain();
      const stalled = await workspaceWithJob(4);
      const held = await claimVideos(store, "wrk_dead", 4, leaseMs);
      await workspaceWithJob(4);
      const lapsedAt = Date.now() + leaseMs + 1;
      const taken = await claimVideos(store, "wrk_heir", 2, leaseMs, lapsedAt);
      expect(taken.map((video) => video.workspaceId)).toEqual([stalled, stalled]);
      expect(taken.every((video) => held.some((h) => h.rowId === video.rowId))).toBe(true);
    });
  });
}
