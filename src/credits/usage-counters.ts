// The usage counters kept beside the balance, so that reading usage never scans jobs or videos.
import type { Transaction } from "kysely";
import { preparedPerStore } from "../store/prepared-query.js";
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

/** Adds each workspace's credits spent to its total for `day` (UTC), for all of them in one statement. */
export async function addDailyCredits(
  trx: Transaction<Database>,
  day: string,
  spent: readonly { workspaceId: string; credits: number }[],
) {
  await trx
    .insertInto("daily_credits")
    .values(spent.map((s) => ({ workspace_id: s.workspaceId, day, credits: s.credits })))
    .onConflict((c) =>
      c
        .columns(["workspace_id", "day"])
        .doUpdateSet((eb) => ({ credits: eb("daily_credits.credits", "+", eb.ref("excluded.credits")) })),
    )
    .execute();
}
