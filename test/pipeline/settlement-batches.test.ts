// A settlement batch spanning several workspaces: each is charged, counted and given ledger lines as if alone.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimVideos } from "../../src/pipeline/claims.js";
import { settleVideos } from "../../src/pipeline/settlement.js";
import type { VideoOutcome } from "../../src/pipeline/video-outcomes.js";
import { loadPlanTable } from "../../src/domain/plans.js";
import { createServices } from "../../src/app/services.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

const plans = loadPlanTable(undefined);

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`settlement batches on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: OpenedStore;
    let services: ReturnType<typeof createServices>;
    const workspaceIds: string[] = [];

    /** A new workspace with one job of `videos`, claimed by `workerId`; answers the claimed videos. */
    const claimedJob = async (name: string, videos: string[], workerId: string) => {
      const { workspaceId, apiKey } = await services.workspaces.create(name, "pro");
      const caller = await services.accessCheck.identify(apiKey);
      if (!caller) throw new Error("the new key did not identify its workspace");
      await services.jobSubmission.submit(caller, { videos, schema: { columns: ["product"] } });
      const claimed = await claimVideos(store, workerId, videos.length, 60_000);
      expect(claimed).toHaveLength(videos.length);
      return { workspaceId, claimed };
    };
    const done: VideoOutcome = {
      kind: "done",
      rows: [{ product: "widget" }],
      sources: [{ startSeconds: 0, endSeconds: 30, quote: "a widget", unverified: [] }],
      durationSeconds: 90,
      chunkCount: 1,
    };

    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
      services = createServices(store, plans, true);
      for (const [name, videos] of [
        ["first", ["aaaaaaaaaaa", "bbbbbbbbbbb"]],
        ["second", ["ccccccccccc"]],
        ["third", ["ddddddddddd"]],
      ] as const) {
        const { workspaceId, apiKey } = await services.workspaces.create(name, "pro");
        workspaceIds.push(workspaceId);
        const caller = await services.accessCheck.identify(apiKey);
        if (!caller) throw new Error("the new key did not identify its workspace");
        await services.jobSubmission.submit(caller, {
          videos: [...videos],
          schema: { columns: ["product"] },
        });
      }
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it("charges, counts and writes ledger lines and daily credits per workspace", async () => {
      const before = await store.db
        .selectFrom("workspaces")
        .select(["id", "balance"])
        .where("id", "in", workspaceIds)
        .execute();
      const balanceBefore = new Map(before.map((w) => [w.id, Number(w.balance)]));
      const claimed = await claimVideos(store, "wrk_batch", 10, 60_000);
      expect(claimed).toHaveLength(4);
      // 90 s is two credits; the third workspace's video fails and costs nothing.
      const third = workspaceIds[2];
      const results = await settleVideos(
        store,
        plans,
        "wrk_batch",
        claimed.map((video) => ({
          video,
          outcome:
            video.workspaceId === third
              ? { kind: "failed", code: "no_captions", message: "none", retryable: false }
              : {
                  kind: "done",
                  rows: [{ product: "widget" }],
                  sources: [{ startSeconds: 0, endSeconds: 90, quote: "widget", unverified: [] }],
                  durationSeconds: 90,
                  chunkCount: 1,
                },
        })),
      );
      expect(results.every((result) => result.kind === "settled")).toBe(true);

      const expectedCharges = new Map([
        [workspaceIds[0], 4],
        [workspaceIds[1], 2],
        [workspaceIds[2], 0],
      ]);
      for (const [workspaceId, charged] of expectedCharges) {
        const workspace = await store.db
          .selectFrom("workspaces")
          .select(["balance", "used_this_cycle", "videos_processed", "jobs_done", "jobs_failed"])
          .where("id", "=", workspaceId as string)
          .executeTakeFirstOrThrow();
        expect(Number(workspace.balance)).toBe((balanceBefore.get(workspaceId as string) ?? 0) - charged);
        expect(Number(workspace.used_this_cycle)).toBe(charged);
        expect(Number(workspace.videos_processed)).toBe(charged / 2);
        const ledger = await store.db
          .selectFrom("credit_ledger")
          .select(["amount", "balance_after"])
          .where("workspace_id", "=", workspaceId as string)
          .where("kind", "=", "charge")
          .orderBy("balance_after", "desc")
          .execute();
        expect(ledger.map((line) => Number(line.amount))).toEqual(Array(charged / 2).fill(-2));
        const daily = await store.db
          .selectFrom("daily_credits")
          .select(sql`sum(credits)`.as("credits"))
          .where("workspace_id", "=", workspaceId as string)
          .executeTakeFirst();
        expect(Number(daily?.credits ?? 0)).toBe(charged);
      }
      const failures = await store.db
        .selectFrom("failure_counts")
        .select(["workspace_id", "code", "count"])
        .execute();
      expect(failures.map((f) => [f.workspace_id, f.code, Number(f.count)])).toEqual([
        [third, "no_captions", 1],
      ]);
    });

    it("prices a batch's videos without the ones whose lease was lost: they spend nothing", async () => {
      const { workspaceId, claimed } = await claimedJob(
        "lost-lease",
        ["eeeeeeeeeee", "fffffffffff", "ggggggggggg"],
        "wrk_lost",
      );
      const [taken, first, second] = claimed as [
        (typeof claimed)[0],
        (typeof claimed)[0],
        (typeof claimed)[0],
      ];
      // Credits for one video of two credits; the first video of the batch was taken over meanwhile.
      await store.db.updateTable("workspaces").set({ balance: 2 }).where("id", "=", workspaceId).execute();
      await store.db
        .updateTable("videos")
        .set({ lease_owner: "wrk_other" })
        .where("id", "=", taken.rowId)
        .execute();
      const results = await settleVideos(
        store,
        plans,
        "wrk_lost",
        [taken, first, second].map((video) => ({ video, outcome: done })),
      );
      expect(results).toEqual([
        { kind: "lost" },
        { kind: "settled", status: "done", jobSettled: false },
        { kind: "settled", status: "failed", jobSettled: false },
      ]);
      const videos = await store.db
        .selectFrom("videos")
        .select(["id", "status", "error_code", "credits_charged", "lease_owner"])
        .where("id", "in", [taken.rowId, first.rowId, second.rowId])
        .execute();
      const byId = new Map(videos.map((video) => [video.id, video]));
      expect(byId.get(taken.rowId)).toMatchObject({ status: "processing", lease_owner: "wrk_other" });
      expect(byId.get(first.rowId)).toMatchObject({ status: "done", error_code: null });
      expect(Number(byId.get(first.rowId)?.credits_charged)).toBe(2);
      expect(byId.get(second.rowId)).toMatchObject({
        status: "failed",
        error_code: "insufficient_credits",
      });
      const workspace = await store.db
        .selectFrom("workspaces")
        .select(["balance", "videos_processed"])
        .where("id", "=", workspaceId)
        .executeTakeFirstOrThrow();
      expect(Number(workspace.balance)).toBe(0);
      expect(Number(workspace.videos_processed)).toBe(1);
    });
  });
}
