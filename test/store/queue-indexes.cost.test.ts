// Cost: claims read the queue and the lapsed leases through their partial indexes, never by scanning videos.
import { type CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimVideos } from "../../src/pipeline/claims.js";
import { settleVideos } from "../../src/pipeline/settlement.js";
import { loadPlanTable } from "../../src/domain/plans.js";
import { createServices } from "../../src/app/services.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { admitAllWaitingJobs } from "../support/admissions.js";
import { explainPlan, StatementLog } from "../support/statement-log.js";

const plans = loadPlanTable(undefined);

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `Cost: the queue's indexes on ${dialectTitle(dialect)}`,
    () => {
      let database: FreshDatabase;
      let store: OpenedStore;
      const log = new StatementLog();

      const explain = async (query: CompiledQuery, slotValues?: Record<string, unknown>) =>
        (await explainPlan(store, query, slotValues)).join("\n");

      beforeAll(async () => {
        database = await freshDatabase(dialect.name);
        store = openStore(database.target);
        await migrateToLatest(store);
        const services = createServices(store, plans, true);
        const { apiKey, workspaceId } = await services.workspaces.create("queue", "pro");
        const caller = await services.accessCheck.identify(apiKey);
        if (!caller) throw new Error("the new key did not identify its workspace");
        // 2,000 videos, nearly all settled, as a queue looks after a while: an index on status alone
        // would still find the few queued ones, but a planner would scan for want of a usable index.
        for (let job = 0; job < 20; job++) {
          await services.jobSubmission.submit(caller, {
            videos: Array.from(
              { length: 100 },
              (_, i) => `v${String(job).padStart(3, "0")}${String(i).padStart(7, "0")}`,
            ),
            schema: { columns: ["product"] },
          });
        }
        await admitAllWaitingJobs(store);
        await store.db.updateTable("videos").set({ status: "done" }).where("position", ">=", 5).execute();
        // And 5,000 settled jobs before them: with only the 20, a planner rightly reads the whole table.
        const now = Date.now();
        for (let start = 0; start < 5000; start += 500) {
          await store.db
            .insertInto("jobs")
            .values(
              Array.from({ length: 500 }, (_, i) => ({
                id: `job_settled${String(start + i).padStart(6, "0")}`,
                workspace_id: workspaceId,
                schema_label: "inline",
                schema_definition: '{"columns":["product"]}',
                language: null,
                status: "done" as const,
                video_count: 1,
                queued_count: 0,
                processing_count: 0,
                done_count: 1,
                failed_count: 0,
                has_failures: 0,
                credits_charged: 1,
                created_at: now,
                completed_at: now,
              })),
            )
            .execute();
        }
        await sql`analyze`.execute(store.db);
      });
      afterAll(async () => {
        await store?.close();
        await database?.drop();
      });

      it("finds queued videos and lapsed leases through videos_queue and videos_leases", async () => {
        const watched = log.watch(store);
        log.clear();
        const claimed = await claimVideos(watched, "wrk_plans", 10, 60_000);
        expect(claimed).toHaveLength(10);
        const now = Date.now();
        const slotValues = { now, limit: 10, leaseUntil: now + 60_000, workerId: "wrk_plans" };
        if (dialect.name === "sqlite") {
          // Two UPDATEs, each with its pick as a sub-select, whose plan shows the sub-select's: the
          // lapsed leases, then the fair share's (held videos counted, the queue's first ones ranked).
          const lapsed = log
            .statements()
            .find((q) => q.sql.includes(`"status" = 'processing' and "lease_expires_at" <`));
          const queued = log.statements().find((q) => /with held as/.test(q.sql));
          if (!lapsed || !queued)
            throw new Error(`the claim's statements were not seen: ${log.statements().map((q) => q.sql)}`);
          expect(await explain(lapsed, slotValues)).toMatch(
            /SEARCH videos USING INDEX videos_leases \(lease_expires_at<\?\)/,
          );
          const plan = await explain(queued, { ...slotValues, window: 42, workspaceCap: 1_000_000_000 });
          expect(plan).toMatch(/SCAN videos USING INDEX videos_queue/);
          expect(plan).toMatch(/SCAN videos USING INDEX videos_leases/);
          expect(plan).not.toMatch(/SCAN videos\s*$/m);
        } else {
          // One statement picks, locks and takes both, and finds the taken rows by primary key.
          const claim = log.statements().find((q) => /with lapsed as materialized/.test(q.sql));
          if (!claim) throw new Error(`the claim was not seen: ${log.statements().map((q) => q.sql)}`);
          const plan = await explain(claim, { ...slotValues, window: 42, workspaceCap: 1_000_000_000 });
          expect(plan).toMatch(/Index Scan using videos_leases on videos/);
          expect(plan).toMatch(/Index Scan using videos_queue on videos/);
          expect(plan).toMatch(/Index Scan using videos_pkey on videos/);
          expect(plan).not.toMatch(/Seq Scan/);
        }
      });

      it("settles a batch by looking up its videos and jobs by primary key", async () => {
        const claimed = await claimVideos(store, "wrk_settle_plans", 5, 60_000);
        expect(claimed).toHaveLength(5);
        const watched = log.watch(store);
        log.clear();
        const results = await settleVideos(
          watched,
          plans,
          "wrk_settle_plans",
          claimed.map((video) => ({
            video,
            outcome: { kind: "done", rows: [], sources: [], durationSeconds: 30, chunkCount: 1 },
          })),
        );
        expect(results.every((result) => result.kind === "settled")).toBe(true);
        // SQLite: the held videos, the outcomes, the job counts. PostgreSQL: the locks, then the
        // outcomes with the job counts.
        const lookups = log
          .statements()
          .filter((q) =>
            /^(update (videos|jobs)\b|select videos\.id from json_each|with (batch|outcomes) as)/.test(
              q.sql.trim(),
            ),
          );
        expect(lookups).toHaveLength(dialect.name === "sqlite" ? 3 : 2);
        const ids = claimed.map((video) => video.rowId);
        const jobIds = [...new Set(claimed.map((video) => video.jobId))];
        const slotValues = {
          batch: "[]",
          jobs: "[]",
          ids: dialect.name === "sqlite" ? JSON.stringify(ids) : ids,
          jobIds,
          workspaceIds: [claimed[0]?.workspaceId],
          now: Date.now(),
          workerId: "wrk_settle_plans",
        };
        for (const lookup of lookups) {
          const plan = await explain(lookup, slotValues);
          if (dialect.name === "sqlite") {
            expect(plan).toMatch(
              /SEARCH (videos|jobs) USING INDEX sqlite_autoindex_(videos|jobs)_1 \(id=\?\)/,
            );
            expect(plan).not.toMatch(/SCAN (videos|jobs)/);
          } else {
            expect(plan).toMatch(/Index Scan using videos_pkey on videos/);
            expect(plan).toMatch(/Index Scan using jobs_pkey on jobs/);
            expect(plan).not.toMatch(/Seq Scan on (videos|jobs)/);
          }
        }
      });

      // Last: it admits jobs of its own, which the tests above would otherwise claim.
      it("takes the oldest waiting admissions first through their index, without sorting the table", async () => {
        // 5,000 admissions waiting, as after the workers were down for a while (the settled jobs'
        // rows stand in for their jobs).
        const settledJobs = await store.db
          .selectFrom("jobs")
          .select(["id", "workspace_id", "created_at"])
          .where("id", "like", "job_settled%")
          .execute();
        for (let start = 0; start < settledJobs.length; start += 500) {
          await store.db
            .insertInto("job_admissions")
            .values(
              settledJobs.slice(start, start + 500).map((job, i) => ({
                workspace_id: job.workspace_id,
                job_id: job.id,
                first_priority: 1_000_000 + start + i,
                platform_video_ids: JSON.stringify([`adm${String(start + i).padStart(8, "0")}`]),
                submitted_urls: JSON.stringify([`adm${String(start + i).padStart(8, "0")}`]),
                created_at: job.created_at + start + i,
              })),
            )
            .execute();
        }
        await sql`analyze`.execute(store.db);
        const watched = log.watch(store);
        log.clear();
        await claimVideos(watched, "wrk_admissions", 1, 60_000);
        const take = log.statements().find((q) => /job_admissions/.test(q.sql) && /order by/.test(q.sql));
        if (!take)
          throw new Error(`the admissions' take was not seen: ${log.statements().map((q) => q.sql)}`);
        const plan = await explain(take);
        if (dialect.name === "sqlite") {
          expect(plan).toMatch(/SCAN job_admissions/);
          expect(plan).not.toMatch(/TEMP B-TREE/);
        } else {
          expect(plan).toMatch(/Index Scan using job_admissions_by_age on job_admissions/);
          expect(plan).not.toMatch(/Sort|Seq Scan/);
        }
      });
    },
  );
}
