// A submission's reservation: the credit checks, the job counted as queued, and its places in the fair queue.
import { type Expression, type Kysely, sql, type Transaction } from "kysely";
import type { Plan } from "../domain/plans.js";
import { ApiError } from "../http/api-errors.js";
import { preparedPerStore } from "../store/prepared-query.js";
import type { Database } from "../store/tables.js";
import { isCycleDue, renewCycleIfDue } from "./cycles.js";

/**
 * Locks the workspace and takes `count` places in the fair queue for its new job, if it may spend:
 * a balance above 0 and, under a hard cap, usage below it. Its videos line up after its own earlier
 * ones but never behind the queue's current head (the lowest priority still queued, by anyone), so a
 * newcomer's one video is not stuck behind another's thousand. (The head is read from admitted
 * videos only. A job waiting for admission already holds its places; a newcomer may be placed ahead
 * of them, as it may be ahead of any queued job's later videos.) Answers the first place taken, and
 * the two dates that say whether a new cycle is due; no row when the workspace may not spend.
 *
 * One statement instead of a read, a look at the head and an update: on PostgreSQL every submission
 * of a workspace waits for this row lock, and it is held from here to the commit. Built on `db` (the
 * store, or the `with` of a statement that goes on to write the jobs: jobs/submission-statements.ts),
 * for `jobs` new jobs of `videos` videos in all (values, or expressions of the statement).
 */
export function queuePlacesTaken<Db extends Pick<Kysely<Database>, "updateTable" | "selectFrom">>(
  db: Db,
  places: { videos: number | Expression<number>; jobs: number | Expression<number> },
  workspaceId: string,
) {
  return db
    .updateTable("workspaces")
    .from(
      db
        .selectFrom("videos")
        .select((eb) => eb.fn.coalesce(eb.fn.min<number | null>("priority"), sql.lit(0)).as("head"))
        // A literal, so that the planner reads it from the queue's partial index.
        .where("status", "=", sql.lit("queued"))
        .as("queue"),
    )
    .set((eb) => ({
      next_video_priority: sql<number>`case when queue.head > workspaces.next_video_priority then queue.head else workspaces.next_video_priority end + ${places.videos}`,
      jobs_queued: eb("jobs_queued", "+", places.jobs),
    }))
    .where("workspaces.id", "=", workspaceId)
    .where("workspaces.balance", ">", 0)
    .where((eb) =>
      eb.or([
        eb("workspaces.hard_cap", "is", null),
        eb("workspaces.used_this_cycle", "<", eb.ref("workspaces.hard_cap")),
      ]),
    )
    .returning([
      sql<number>`workspaces.next_video_priority - ${places.videos}`.as("first_priority"),
      "workspaces.created_at",
      "workspaces.cycle_started_at",
    ]);
}

/** `queuePlacesTaken` on its own, prepared once per store (see prepared-query.ts for why). */
const takeQueuePlaces = preparedPerStore<
  { count: number; workspaceId: string },
  { first_priority: number; created_at: number; cycle_started_at: number }
>((db, { count, workspaceId }) => queuePlacesTaken(db, { videos: count, jobs: 1 }, workspaceId));

/** The workspace submitting, and the plan it is on (whose allowance a due cycle renews to). */
export interface Spender {
  readonly workspaceId: string;
  readonly plan: Plan;
}

/**
 * Reserves for a new job of `count` videos inside the submission's transaction: the job counted as
 * queued and `count` places in the fair queue taken (see takeQueuePlaces); answers the first place.
 * Refuses the job with 402 when the workspace may not spend. Most submissions do it in one statement.
 * A refused one looks at the whole row, after starting the workspace's new cycle if one is due, since
 * that may refill what it was refused for. `db` is the store's, for its prepared statement.
 */
export async function reserveForJob(
  db: Kysely<Database>,
  trx: Transaction<Database>,
  spender: Spender,
  count: number,
  now: number,
): Promise<number> {
  const places = await takeQueuePlaces(db).first(trx, { count, workspaceId: spender.workspaceId });
  if (places) {
    // The checks passed on the old cycle's figures; a renewal only raises the balance and clears
    // the usage, so they pass on the new one too.
    if (isCycleDue(places, now)) await renewCycleIfDue(trx, spender.workspaceId, spender.plan, now);
    return places.first_priority;
  }
  const workspace = await renewCycleIfDue(trx, spender.workspaceId, spender.plan, now);
  if (workspace.balance <= 0) {
    throw new ApiError(
      "insufficient_credits",
      "The credit balance is 0; wait for the next cycle or add credits before submitting.",
    );
  }
  if (workspace.hard_cap !== null && workspace.used_this_cycle >= workspace.hard_cap) {
    throw new ApiError(
      "hard_cap_reached",
      `This cycle has used ${workspace.used_this_cycle} credits, the hard cap; raise or clear it with PATCH /v1/usage.`,
    );
  }
  // The new cycle made room.
  const renewed = await takeQueuePlaces(db).first(trx, { count, workspaceId: spender.workspaceId });
  if (!renewed)
    throw new Error(`Workspace ${spender.workspaceId} was refused queue places it has credits for.`);
  return renewed.first_priority;
}
