// The statements `POST /v1` runs, prepared once per store (see prepared-query.ts for why).
import { type Kysely, sql } from "kysely";
import { type PreparedQuery, prepareQuery, preparedPerStore } from "../store/prepared-query.js";
import type { Database } from "../store/tables.js";

/**
 * Locks the workspace and takes `count` places in the fair queue for its new job, if it may spend:
 * a balance above 0 and, under a hard cap, usage below it. Its videos line up after its own earlier
 * ones but never behind the queue's current head (the lowest priority still queued, by anyone), so a
 * newcomer's one video is not stuck behind another's thousand. Answers the first place taken, and the
 * two dates that say whether a new cycle is due; no row when the workspace may not spend.
 *
 * One statement instead of a read, a look at the head and an update: on PostgreSQL every submission
 * of a workspace waits for this row lock, and it is held from here to the commit.
 */
export const takeQueuePlaces = preparedPerStore<
  [count: number, workspaceId: string],
  { first_priority: number; created_at: number; cycle_started_at: number }
>(2, (db, count, workspaceId) =>
  db
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
      next_video_priority: sql<number>`case when queue.head > workspaces.next_video_priority then queue.head else workspaces.next_video_priority end + ${count}`,
      jobs_queued: eb("jobs_queued", "+", 1),
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
      sql<number>`workspaces.next_video_priority - ${count}`.as("first_priority"),
      "workspaces.created_at",
      "workspaces.cycle_started_at",
    ]),
);

export const insertJob = preparedPerStore<
  [
    jobId: string,
    workspaceId: string,
    schemaLabel: string,
    schemaDefinition: string,
    language: string | null,
    videoCount: number,
    createdAt: number,
  ],
  never
>(7, (db, jobId, workspaceId, schemaLabel, schemaDefinition, language, videoCount, createdAt) =>
  db.insertInto("jobs").values({
    id: jobId,
    workspace_id: workspaceId,
    schema_label: schemaLabel,
    schema_definition: schemaDefinition,
    language,
    status: "processing",
    video_count: videoCount,
    queued_count: videoCount,
    processing_count: 0,
    done_count: 0,
    failed_count: 0,
    has_failures: 0,
    credits_charged: 0,
    created_at: createdAt,
  }),
);

/**
 * The values of one queued video, in the order an insert takes them: id, job id, workspace id,
 * position, platform video id, submitted URL, priority, available at.
 */
const valuesPerVideo = 8;

/** Rows per INSERT: far inside both databases' limits on bound parameters (32,766 and 65,535). */
export const videosPerInsert = 100;

/**
 * Inserts of 1 to `videosPerInsert` queued videos, one prepared statement per row count, each made
 * on first use. Every row is one more set of values in the same statement, which costs less than a
 * statement per row; a job of any size is inserted in statements of at most `videosPerInsert` rows.
 */
export class QueuedVideoInserts {
  private readonly bySize = new Map<number, PreparedQuery<unknown[], never>>();

  constructor(private readonly db: Kysely<Database>) {}

  /** The statement for `count` rows (1 to `videosPerInsert`); its arguments are the rows' values, flat. */
  forRows(count: number): PreparedQuery<unknown[], never> {
    let prepared = this.bySize.get(count);
    if (!prepared) {
      prepared = prepareQuery<unknown[], never>(this.db, count * valuesPerVideo, (db, ...slots) =>
        db.insertInto("videos").values(
          Array.from({ length: count }, (_, row) => {
            // This row's slots, in the order of valuesPerVideo's comment.
            const at = (column: number) => slots[row * valuesPerVideo + column] as never;
            return {
              id: at(0),
              job_id: at(1),
              workspace_id: at(2),
              position: at(3),
              platform_video_id: at(4),
              submitted_url: at(5),
              status: "queued" as const,
              priority: at(6),
              available_at: at(7),
            };
          }),
        ),
      );
      this.bySize.set(count, prepared);
    }
    return prepared;
  }
}

export const recordIdempotency = preparedPerStore<
  [
    workspaceId: string,
    key: string,
    requestHash: string,
    responseBody: string,
    createdAt: number,
    expiredBefore: number,
  ],
  never
>(6, (db, workspaceId, key, requestHash, responseBody, createdAt, expiredBefore) =>
  db
    .insertInto("idempotency_keys")
    .values({
      workspace_id: workspaceId,
      key,
      request_hash: requestHash,
      response_status: 202,
      response_body: responseBody,
      created_at: createdAt,
    })
    // A record older than the window is taken over; a live one means another request won the race.
    .onConflict((c) =>
      c
        .columns(["workspace_id", "key"])
        .doUpdateSet({ request_hash: requestHash, response_body: responseBody, created_at: createdAt })
        .where("idempotency_keys.created_at", "<=", expiredBefore),
    ),
);
