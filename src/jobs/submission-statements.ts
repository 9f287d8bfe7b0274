// The statements `POST /v1` runs, prepared once per store (see prepared-query.ts for why).
import { sql } from "kysely";
import { preparedPerStore } from "../store/prepared-query.js";

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

/** Records the job's videos and queue places, for a worker to turn into rows of `videos` (admissions.ts). */
export const recordAdmission = preparedPerStore<
  [
    workspaceId: string,
    jobId: string,
    firstPriority: number,
    platformVideoIds: string,
    submittedUrls: string,
    createdAt: number,
  ],
  never
>(6, (db, workspaceId, jobId, firstPriority, platformVideoIds, submittedUrls, createdAt) =>
  db.insertInto("job_admissions").values({
    workspace_id: workspaceId,
    job_id: jobId,
    first_priority: firstPriority,
    platform_video_ids: platformVideoIds,
    submitted_urls: submittedUrls,
    created_at: createdAt,
  }),
);

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
