// The statements `POST /v1` runs, prepared once per store (see prepared-query.ts for why).
import { type Kysely, sql } from "kysely";
import { type PreparedQuery, prepareQuery, preparedPerStore } from "../store/prepared-query.js";
import type { Database } from "../store/tables.js";

/** The lowest priority still queued, by anyone: where a newcomer's videos may start. */
export const queueHead = preparedPerStore<[], { head: number | null }>(0, (db) =>
  db
    .selectFrom("videos")
    .select((eb) => eb.fn.min<number | null>("priority").as("head"))
    // A literal, so that the planner reads it from the queue's partial index.
    .where("status", "=", sql.lit("queued")),
);

export const reserveQueuePlaces = preparedPerStore<[nextPriority: number, workspaceId: string], never>(
  2,
  (db, nextPriority, workspaceId) =>
    db
      .updateTable("workspaces")
      .set((eb) => ({ next_video_priority: nextPriority, jobs_queued: eb("jobs_queued", "+", 1) }))
      .where("id", "=", workspaceId),
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
