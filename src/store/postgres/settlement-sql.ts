// PostgreSQL's settlement: the batch's rows locked in id order by one statement, its outcomes and job
// counts written by another.
import { sql } from "kysely";
import { preparedSqlPerStore } from "../prepared-query.js";
import type { JobCountParams, JobCountsAfter, OutcomeParams, SettlementSql } from "../settlement-sql.js";
import type { WorkspaceRow } from "../tables.js";

// The rows are locked beforehand in id order (`lockBatch`), so a multi-row UPDATE, which promises no
// order of its own, cannot deadlock. PostgreSQL is given the ids as an array as well: planning the join
// on a function's rows (which it guesses at 100), it would rather read every video in process through
// their partial index than look up the batch's by primary key.

/**
 * The batch's locks in one statement, in the one order every claim and settlement keeps (videos, then
 * jobs, then workspaces, each by id): the batch's videos, of which it keeps those `workerId` still
 * holds, then their jobs, then the workspaces of all the batch's videos, whose rows it answers with the
 * held videos' ids. ORDER BY makes FOR UPDATE lock in id order; the CTEs are MATERIALIZED, each run
 * once, and the workspaces are locked only once the jobs' CTE has run (its count is a one-time filter
 * of their scan, their locks taken above it). The videos are locked by id alone and the lease checked
 * on the locked rows: asked for `processing` videos, the planner would read every video in process
 * through the leases' partial index. A video lost to another worker is locked too, which only waits
 * for that worker's settlement to commit (it locks nothing else first).
 */
const lockBatchStatement = preparedSqlPerStore<
  { ids: string[]; workerId: string; workspaceIds: string[] },
  WorkspaceRow & { held_ids: string[] }
>(
  (_dialect, slots) => sql`
    with batch as materialized (
      select id, job_id, lease_owner, status from videos
      where id = any(${slots.ids}::text[])
      order by id
      for update
    ), held as materialized (
      select id, job_id from batch where lease_owner = ${slots.workerId} and status = 'processing'
    ), held_jobs as materialized (
      select id from jobs where id in (select job_id from held) order by id for update
    )
    select w.*, array(select id from held) as held_ids
    from workspaces as w
    where w.id = any(${slots.workspaceIds}::text[]) and (select count(*) from held_jobs) >= 0
    order by w.id
    for update of w`,
);

/**
 * The outcomes as a data-modifying WITH query, which the job counts' UPDATE follows, answering how many
 * outcomes it wrote beside each job's counts. The outcomes only for videos found held under the
 * batch's locks, which nothing can change before this: the lease owner is checked again but not the
 * status (see `lockBatchStatement`). A settled video's fields of the other kind were never written, so
 * writing them null leaves them as they were.
 */
const writeOutcomesAndCountJobs = preparedSqlPerStore<
  OutcomeParams & JobCountParams,
  JobCountsAfter & { outcomes_written: number }
>(
  (_dialect, slots) => sql`with outcomes as (
      update videos as v set
        status = d.status, "rows" = d."rows", row_count = d.row_count,
        platform_video_id = coalesce(d.platform_video_id, v.platform_video_id),
        duration_seconds = d.duration_seconds, chunk_count = d.chunk_count,
        transcript_source = d.transcript_source, credits_charged = d.credits_charged, error_code = d.error_code,
        error_message = d.error_message, error_retryable = d.error_retryable,
        lease_owner = null, lease_expires_at = null, settled_at = ${slots.now}
      from json_populate_recordset(null::videos, ${slots.batch}::json) as d
      where v.id = any(${slots.ids}::text[]) and v.id = d.id and v.lease_owner = ${slots.workerId}
      returning 1
    )
    update jobs as j set
      processing_count = j.processing_count - d.settled, done_count = j.done_count + d.done,
      failed_count = j.failed_count + d.failed,
      has_failures = case when d.failed > 0 then 1 else j.has_failures end,
      credits_charged = j.credits_charged + d.charge
    from json_to_recordset(${slots.jobs}::json)
      as d(id text, settled integer, done integer, failed integer, charge bigint)
    where j.id = any(${slots.jobIds}::text[]) and j.id = d.id
    returning j.id, queued_count, processing_count, done_count, failed_count, video_count,
      schema_label, credits_charged, (select count(*) from outcomes)::integer as outcomes_written`,
);

const closeJobs = preparedSqlPerStore<{ batch: string; ids: string[]; now: number }, never>(
  (_dialect, slots) => sql`update jobs as j set status = d.status, completed_at = ${slots.now}
    from json_to_recordset(${slots.batch}::json) as d(id text, status text)
    where j.id = any(${slots.ids}::text[]) and j.id = d.id`,
);

export const postgresSettlement: SettlementSql = {
  async lockBatch(db, trx, batch) {
    const rows = await lockBatchStatement(db).rows(trx, batch);
    return {
      held: new Set(rows[0]?.held_ids ?? []),
      workspaces: rows.map(({ held_ids: _, ...workspace }) => workspace),
    };
  },
  /** One statement, one round trip. */
  async writeOutcomesAndCountJobs(db, trx, params) {
    const after = await writeOutcomesAndCountJobs(db).rows(trx, params);
    return { written: after[0]?.outcomes_written ?? 0, after };
  },
  closeJobs,
};
