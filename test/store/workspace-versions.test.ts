// PostgreSQL's per-workspace write versions (migration 0011): moved by every committed write a remembered read could show.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";

const postgres = dialects.find((d) => d.name === "postgres");

// SQLite has one writer at a time and one write stamp for the whole file (stamped-cache.test.ts); the
// versions are PostgreSQL's, whose writers run side by side.
describe.skipIf(!postgres || postgres.skipReason !== null)(
  `workspace write versions on ${postgres ? dialectTitle(postgres) : "postgres"}`,
  () => {
    let database: FreshDatabase;
    let store: Store;
    beforeAll(async () => {
      database = await freshDatabase("postgres");
      store = openStore(database.target);
      await migrateToLatest(store);
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    let made = 0;
    /** A new workspace with one job, one admission row and one key. */
    async function workspace() {
      const id = `ws_versions_${++made}`;
      const now = Date.now();
      await store.db
        .insertInto("workspaces")
        .values({
          id,
          name: id,
          plan_id: "pro",
          created_at: now,
          cycle_started_at: now,
          balance: 100,
          used_this_cycle: 0,
          hard_cap: null,
        })
        .execute();
      await store.db
        .insertInto("jobs")
        .values(job(`job_${id}_1`, id))
        .execute();
      await store.db
        .insertInto("jobs")
        .values(job(`job_${id}_2`, id))
        .execute();
      await store.db
        .insertInto("job_admissions")
        .values({
          workspace_id: id,
          job_id: `job_${id}_1`,
          first_priority: 0,
          platform_video_ids: "[]",
          submitted_urls: "[]",
          created_at: now,
        })
        .execute();
      await store.db
        .insertInto("api_keys")
        .values({
          id: `key_${id}`,
          workspace_id: id,
          environment: "live",
          label: "",
          note: "",
          key_hash: `hash_${id}`,
          last_four: "abcd",
          created_at: now,
          last_used_at: null,
          revoked_at: null,
        })
        .execute();
      return id;
    }

    function job(id: string, workspaceId: string) {
      return {
        id,
        workspace_id: workspaceId,
        schema_label: "inline",
        schema_definition: "{}",
        language: null,
        status: "processing" as const,
        video_count: 1,
        queued_count: 1,
        processing_count: 0,
        done_count: 0,
        failed_count: 0,
        has_failures: 0,
        credits_charged: 0,
        created_at: Date.now(),
      };
    }

    async function versionOf(workspaceId: string): Promise<number> {
      const row = await store.db
        .selectFrom("workspace_versions")
        .select("version")
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      return Number(row?.version ?? 0);
    }

    it("moves with each committed write a remembered read shows, and only its own workspace's", async () => {
      const [mine, other] = [await workspace(), await workspace()];
      const db = store.db;
      const writes: [string, () => Promise<unknown>][] = [
        [
          "the workspace row",
          () => db.updateTable("workspaces").set({ hard_cap: 5 }).where("id", "=", mine).execute(),
        ],
        [
          "a job's counts",
          () => db.updateTable("jobs").set({ queued_count: 0 }).where("id", "=", `job_${mine}_1`).execute(),
        ],
        [
          "a new job",
          () =>
            db
              .insertInto("jobs")
              .values(job(`job_${mine}_3`, mine))
              .execute(),
        ],
        [
          "an admission taken",
          () => db.deleteFrom("job_admissions").where("workspace_id", "=", mine).execute(),
        ],
        [
          "a key revoked",
          () => db.updateTable("api_keys").set({ revoked_at: 1 }).where("workspace_id", "=", mine).execute(),
        ],
        [
          "a failure counted",
          () =>
            db
              .insertInto("failure_counts")
              .values({ workspace_id: mine, code: "no_captions", count: 1 })
              .execute(),
        ],
        [
          "a day's credits",
          () =>
            db
              .insertInto("daily_credits")
              .values({ workspace_id: mine, day: "2026-01-01", credits: 3 })
              .execute(),
        ],
      ];
      for (const [what, write] of writes) {
        const [before, otherBefore] = [await versionOf(mine), await versionOf(other)];
        await write();
        expect(await versionOf(mine), what).toBe(before + 1);
        expect(await versionOf(other), what).toBe(otherBefore);
      }
    });

    it("moves once per transaction, for every workspace it wrote, however many rows", async () => {
      const [a, b] = [await workspace(), await workspace()];
      const [beforeA, beforeB] = [await versionOf(a), await versionOf(b)];
      await store.db.transaction().execute(async (trx) => {
        await trx.updateTable("jobs").set({ queued_count: 0 }).where("workspace_id", "in", [a, b]).execute();
        await trx.updateTable("workspaces").set({ balance: 1 }).where("id", "in", [a, b]).execute();
        await trx.updateTable("jobs").set({ done_count: 1 }).where("workspace_id", "=", a).execute();
      });
      expect([await versionOf(a), await versionOf(b)]).toEqual([beforeA + 1, beforeB + 1]);
    });

    it("does not move for a write rolled back, whole or to a savepoint, nor for one that changed no row", async () => {
      const [a, b] = [await workspace(), await workspace()];
      const [beforeA, beforeB] = [await versionOf(a), await versionOf(b)];
      const rolledBack = new Error("roll back");
      await expect(
        store.db.transaction().execute(async (trx) => {
          await trx.updateTable("workspaces").set({ balance: 0 }).where("id", "=", a).execute();
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      await store.db.transaction().execute(async (trx) => {
        await sql`savepoint only_a`.execute(trx);
        await trx.updateTable("workspaces").set({ balance: 0 }).where("id", "=", a).execute();
        await sql`rollback to savepoint only_a`.execute(trx);
        await trx.updateTable("workspaces").set({ balance: 0 }).where("id", "=", b).execute();
      });
      await store.db.updateTable("jobs").set({ queued_count: 9 }).where("id", "=", "job_nobody").execute();
      expect([await versionOf(a), await versionOf(b)]).toEqual([beforeA, beforeB + 1]);
    });

    it("is not moved by video writes alone: each one a read shows comes with its job's or admission's", async () => {
      const a = await workspace();
      await store.db
        .insertInto("videos")
        .values({
          id: `vid_${a}`,
          job_id: `job_${a}_2`,
          workspace_id: a,
          position: 0,
          platform_video_id: "abcdefghijk",
          submitted_url: null,
          status: "processing",
          priority: 0,
          available_at: 0,
          lease_owner: "w",
          lease_expires_at: 1,
          rows: null,
          row_count: null,
          duration_seconds: null,
          chunk_count: null,
          error_code: null,
          error_message: null,
          error_retryable: null,
          settled_at: null,
        })
        .execute();
      const before = await versionOf(a);
      // A lease renewal, the most frequent write of all.
      await store.db
        .updateTable("videos")
        .set({ lease_expires_at: 2 })
        .where("id", "=", `vid_${a}`)
        .execute();
      expect(await versionOf(a)).toBe(before);
    });

    it("takes the version rows at the commit, in one order: transactions crossing two workspaces never deadlock on them", async () => {
      const [a, b] = [await workspace(), await workspace()];
      const [beforeA, beforeB] = [await versionOf(a), await versionOf(b)];
      // Each transaction writes a job of both workspaces, in opposite orders, interleaved: moving the
      // versions as the rows changed would leave each holding one version and waiting for the other's.
      const steps = { firstWritten: latch(), secondWritten: latch(), firstDone: latch() };
      const one = store.db.transaction().execute(async (trx) => {
        await trx.updateTable("jobs").set({ done_count: 1 }).where("id", "=", `job_${a}_1`).execute();
        steps.firstWritten.open();
        await steps.secondWritten.opened;
        await trx.updateTable("jobs").set({ done_count: 1 }).where("id", "=", `job_${b}_1`).execute();
        steps.firstDone.open();
      });
      const two = store.db.transaction().execute(async (trx) => {
        await steps.firstWritten.opened;
        await trx.updateTable("jobs").set({ done_count: 2 }).where("id", "=", `job_${b}_2`).execute();
        steps.secondWritten.open();
        await steps.firstDone.opened;
        await trx.updateTable("jobs").set({ done_count: 2 }).where("id", "=", `job_${a}_2`).execute();
      });
      await Promise.all([one, two]);
      expect([await versionOf(a), await versionOf(b)]).toEqual([beforeA + 2, beforeB + 2]);
    });
  },
);

/** A gate one side opens and the other awaits. */
function latch(): { open: () => void; opened: Promise<void> } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
