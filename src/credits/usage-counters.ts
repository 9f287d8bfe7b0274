// The usage counters kept beside the balance, so that reading usage never scans jobs or videos.
import { sql, type Transaction } from "kysely";
import { databaseSql } from "../store/database-sql.js";
import { preparedPerStore, preparedSqlPerStore } from "../store/prepared-query.js";
import type { Database } from "../store/tables.js";

// A job is counted `queued` by its reservation (reservation.ts) and `done` or `failed` when it
// settles (settlement-charges.ts), each inside the statement that already writes the workspace row.

/** Moves `jobs` whose first videos a worker just claimed from the workspace's `queued` count to `processing`. */
export async function countJobsStarted(trx: Transaction<Database>, workspaceId: string, jobs: number) {
  await trx
    .updateTable("workspaces")
    .set((eb) => ({
      jobs_queued: eb("jobs_queued", "-", jobs),
      jobs_processing: eb("jobs_processing", "+", jobs),
    }))
    .where("id", "=", workspaceId)
    .execute();
}

/** Adds `count` failed videos of one error code to the workspace's `failures_by_code`. */
export const addFailures = preparedPerStore<{ workspaceId: string; code: string; count: number }, never>(
  (db, { workspaceId, code, count }) =>
    db
      .insertInto("failure_counts")
      .values({ workspace_id: workspaceId, code, count })
      .onConflict((c) =>
        c
          .columns(["workspace_id", "code"])
          .doUpdateSet((eb) => ({ count: eb("failure_counts.count", "+", count) })),
      ),
);

/**
 * Adds each workspace's credits spent (`spent`: JSON of `{ workspace_id, credits }`, one per workspace)
 * to its total for `day` (UTC), for all of them in one statement. (SQLite's upsert from a SELECT needs
 * its WHERE, even `where true`, to tell the ON CONFLICT from a join's ON.)
 */
export const addDailyCredits = preparedSqlPerStore<{ day: string; spent: string }, never>(
  (dialect, slots) => {
    const spent = databaseSql(dialect).vocabulary.jsonRecords(slots.spent, {
      workspace_id: "text",
      credits: "bigint",
    });
    return sql`insert into daily_credits (workspace_id, credits, day)
    select ${spent.fields}, ${slots.day} from ${spent.from} where true
    on conflict (workspace_id, day) do update set credits = daily_credits.credits + excluded.credits`;
  },
);
