// Claims read the queue and the lapsed leases through their partial indexes, never by scanning videos.
import { type CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimVideos } from "../../src/pipeline/claims.js";
import { loadPlanTable } from "../../src/domain/plans.js";
import { createServices } from "../../src/app/services.js";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { admitAllWaitingJobs } from "../support/admissions.js";
import { explainPlan, StatementLog } from "../support/statement-log.js";

const plans = loadPlanTable(undefined);

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`the queue's indexes on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: Store;
    const log = new StatementLog();

    const explain = async (query: CompiledQuery) => (await explainPlan(store, query)).join("\n");

    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
      store = openStore(database.target);
      await migrateToLatest(store);
      const services = createServices(store, plans, true);
      const { apiKey } = await services.workspaces.create("queue", "pro");
      const caller = await services.authenticator.identify(apiKey);
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
      // On PostgreSQL the candidates are selected (and locked) first; on SQLite they are a sub-select
      // of the UPDATE, whose plan shows the sub-select's.
      const selects = log.statements().filter((q) => q.sql.includes(`select "id" from "videos"`));
      const lapsed = selects.find((q) => q.sql.includes(`"status" = 'processing' and "lease_expires_at" <`));
      const queued = selects.find((q) => q.sql.includes(`"status" = 'queued' and "available_at" <=`));
      if (!lapsed || !queued)
        throw new Error(`the claim's selects were not seen: ${selects.map((q) => q.sql)}`);

      const lapsedPlan = await explain(lapsed);
      const queuedPlan = await explain(queued);
      if (dialect.name === "sqlite") {
        expect(lapsedPlan).toMatch(/SEARCH videos USING INDEX videos_leases \(lease_expires_at<\?\)/);
        expect(queuedPlan).toMatch(/SCAN videos USING INDEX videos_queue/);
      } else {
        expect(lapsedPlan).toMatch(/Index Scan using videos_leases on videos/);
        expect(queuedPlan).toMatch(/Index Scan using videos_queue on videos/);
        expect(`${lapsedPlan}\n${queuedPlan}`).not.toMatch(/Seq Scan/);
      }
    });
  });
}
