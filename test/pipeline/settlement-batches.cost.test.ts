// Cost: what settling a batch asks of the database does not grow with the batch's videos and jobs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../src/app/services.js";
import { loadPlanTable } from "../../src/domain/plans.js";
import { claimVideos } from "../../src/pipeline/claims.js";
import { settleVideos } from "../../src/pipeline/settlement.js";
import type { VideoOutcome } from "../../src/pipeline/video-outcomes.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { StatementLog } from "../support/statement-log.js";

const plans = loadPlanTable(undefined);

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Cost: settlement batches on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    let store: OpenedStore;
    let services: ReturnType<typeof createServices>;
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
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it("settles a batch of many videos and jobs in as many statements as a batch of one", async () => {
      const log = new StatementLog();
      const statementsToSettle = async (
        name: string,
        jobs: number,
        videosPerJob: number,
        settling = store,
      ) => {
        const { workspaceId, apiKey } = await services.workspaces.create(name, "pro");
        const caller = await services.accessCheck.identify(apiKey);
        if (!caller) throw new Error("the new key did not identify its workspace");
        for (let job = 0; job < jobs; job++) {
          await services.jobSubmission.submit(caller, {
            videos: Array.from({ length: videosPerJob }, (_, i) => `${name}${job}${i}`.padEnd(11, "x")),
            schema: { columns: ["product"] },
          });
        }
        const claimed = await claimVideos(store, `wrk_${name}`, jobs * videosPerJob, 60_000);
        expect(claimed.every((video) => video.workspaceId === workspaceId)).toBe(true);
        const watched = log.watch(settling);
        log.clear();
        const results = await settleVideos(
          watched,
          plans,
          `wrk_${name}`,
          // Half done, half failed: both kinds of outcome, and jobs closing with failures.
          claimed.map((video, i) => ({
            video,
            outcome:
              i % 2 === 0 ? done : { kind: "failed", code: "no_captions", message: "none", retryable: false },
          })),
        );
        expect(results.every((result) => result.kind === "settled" && result.jobSettled)).toBe(true);
        return log.statements().length;
      };
      const one = await statementsToSettle("stmtsa", 1, 2);
      const many = await statementsToSettle("stmtsb", 6, 4);
      expect(many).toBe(one);
      // VIDROWS_COMBINED_WRITES=0: on PostgreSQL the writes that answer nothing go one statement each,
      // as on SQLite always, and the batch settles the same.
      const separate = await statementsToSettle("stmtsc", 6, 4, { ...store, combinesWrites: false });
      if (dialect.name === "postgres") expect(separate).toBeGreaterThan(many);
      else expect(separate).toBe(many);
    });
  });
}
