// SQLite's settlement: the first write takes the database's single write lock, so there is no order to keep.
import { sql } from "kysely";
import { preparedSqlPerStore } from "../prepared-query.js";
import type { JobCountParams, JobCountsAfter, OutcomeParams, SettlementSql } from "../settlement-sql.js";
import { lockAndReadWorkspace } from "../workspace-lock.js";

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The videos of `ids` (a JSON array) that `workerId` still holds. Run once the settlement holds the
 * database's write lock (after its first write), so that nothing can change the answer before its
 * outcomes are written. The CROSS JOIN keeps the ids as the outer loop, each video looked up by primary
 * key (SQLite's planner would otherwise read every video in process through the leases' partial index).
 */
const heldVideos = preparedSqlPerStore<{ ids: string; workerId: string }, { id: string }>(
  (_dialect, slots) =>
    sql`select videos.id from json_each(${slots.ids}) as batch cross join videos on videos.id = batch.value
      where videos.lease_owner = ${slots.workerId} and videos.status = 'processing'`,
);

/**
 * Each video's outcome and charge, for videos found held (`processing`, leased to `workerId`), which
 * nothing can change before this: the lease owner is checked again but not the status, which would let
 * the planner read every video in process through the leases' partial index instead of the batch's by
 * primary key. A settled video's fields of the other kind were never written, so writing them null
 * leaves them as they were.
 */
const writeOutcomes = preparedSqlPerStore<OutcomeParams, never>(
  (_dialect, slots) => sql`update videos set
    status = d.status, "rows" = d."rows", row_count = d.row_count,
    platform_video_id = coalesce(d.platform_video_id, videos.platform_video_id),
    duration_seconds = d.duration_seconds, chunk_count = d.chunk_count,
    transcript_source = d.transcript_source, credits_charged = d.credits_charged, error_code = d.error_code,
    error_message = d.error_message, error_retryable = d.error_retryable,
    lease_owner = null, lease_expires_at = null, settled_at = ${slots.now}
  from (
    select value ->> 'id' as id, value ->> 'status' as status, value ->> 'rows' as "rows",
      value ->> 'platform_video_id' as platform_video_id, value ->> 'row_count' as row_count, value ->> 'duration_seconds' as duration_seconds,
      value ->> 'chunk_count' as chunk_count, value ->> 'transcript_source' as transcript_source,
      value ->> 'credits_charged' as credits_charged,
      value ->> 'error_code' as error_code, value ->> 'error_message' as error_message,
      value ->> 'error_retryable' as error_retryable
    from json_each(${slots.batch})
  ) as d
  where videos.id = d.id and videos.lease_owner = ${slots.workerId}`,
);

/**
 * Moves each job's settled videos from `processing` to `done` and `failed`, marks the jobs with
 * failures, adds the charges; answers the counts after.
 */
const countInJobs = preparedSqlPerStore<JobCountParams, JobCountsAfter>(
  (_dialect, slots) => sql`update jobs set
    processing_count = processing_count - d.settled, done_count = done_count + d.done,
    failed_count = failed_count + d.failed,
    has_failures = case when d.failed > 0 then 1 else has_failures end,
    credits_charged = credits_charged + d.charge
  from (
    select value ->> 'id' as id, value ->> 'settled' as settled, value ->> 'done' as done,
      value ->> 'failed' as failed, value ->> 'charge' as charge
    from json_each(${slots.jobs})
  ) as d
  where jobs.id = d.id
  returning jobs.id, queued_count, processing_count, done_count, failed_count, video_count,
    schema_label, credits_charged`,
);

const closeJobs = preparedSqlPerStore<{ batch: string; ids: string[]; now: number }, never>(
  (_dialect, slots) => sql`update jobs set status = d.status, completed_at = ${slots.now}
    from (select value ->> 'id' as id, value ->> 'status' as status from json_each(${slots.batch})) as d
    where jobs.id = d.id`,
);

export const sqliteSettlement: SettlementSql = {
  /**
   * The workspaces' no-op UPDATE ... RETURNING takes the write lock (SQLite has no FOR UPDATE; one
   * workspace, the common case, by a prepared statement), then the leases are read: a read first would
   * begin a read transaction that cannot always become a write one.
   */
  async lockBatch(db, trx, { ids, workerId, workspaceIds }) {
    const workspaces =
      workspaceIds.length === 1
        ? await lockAndReadWorkspace(db).rows(trx, { workspaceId: workspaceIds[0] as string })
        : (
            await trx
              .updateTable("workspaces")
              .set((eb) => ({ plan_id: eb.ref("plan_id") }))
              .where("id", "in", workspaceIds)
              .returningAll()
              .execute()
          ).sort((a, b) => byId(a.id, b.id));
    const rows = await heldVideos(db).rows(trx, { ids: JSON.stringify(ids), workerId });
    return { held: new Set(rows.map((video) => video.id)), workspaces };
  },
  /** Two statements: SQLite has no data-modifying WITH queries. */
  async writeOutcomesAndCountJobs(db, trx, params) {
    const written = Number((await writeOutcomes(db).run(trx, params)).numAffectedRows ?? 0n);
    return { written, after: await countInJobs(db).rows(trx, params) };
  },
  closeJobs,
};
