// The statements a settlement runs for its batch's videos and jobs, prepared once per store (the
// workspace's are in credits/settlement-charges.ts, the events' in webhooks/outbox.ts).
import { type RawBuilder, sql } from "kysely";
import { preparedSqlPerStore, type Slots } from "../store/prepared-query.js";
import type { WorkspaceRow } from "../store/tables.js";

// Each statement writes the whole batch: its values travel as one JSON array, read as a table
// (`json_populate_recordset` on PostgreSQL, `json_each` on SQLite), so that a batch of 13 videos is one
// round trip instead of 13, and one statement for the database to parse and plan. On PostgreSQL the
// rows are locked beforehand in id order (`lockBatchPostgres`), so a multi-row UPDATE, which promises
// no order of its own, cannot deadlock. PostgreSQL is given the ids as an array as well: planning the
// join on a function's rows (which it guesses at 100), it would rather read every video in process
// through their partial index than look up the batch's by primary key.

/** One video's outcome as the batch's write takes it; the fields of the other kind are null. */
export interface OutcomeRecord {
  readonly id: string;
  readonly status: "done" | "failed";
  /** The video_id yt-dlp gave a page of another platform; null keeps the one the video has. */
  readonly platform_video_id: string | null;
  readonly rows: string | null;
  readonly row_count: number | null;
  readonly duration_seconds: number | null;
  readonly chunk_count: number | null;
  readonly credits_charged: number;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly error_retryable: number | null;
}

/** What a batch adds to one job's counts, as the job counts' statement takes it. */
export interface JobChangeRecord {
  readonly id: string;
  readonly settled: number;
  readonly done: number;
  readonly failed: number;
  readonly charge: number;
}

export interface JobCountsAfter {
  id: string;
  queued_count: number;
  processing_count: number;
  done_count: number;
  failed_count: number;
  video_count: number;
  schema_label: string;
  credits_charged: number;
}

interface OutcomeParams {
  /** JSON of `OutcomeRecord`s. */
  batch: string;
  /** Their ids (read on PostgreSQL only). */
  ids: string[];
  now: number;
  workerId: string;
}

interface JobCountParams {
  /** JSON of `JobChangeRecord`s. */
  jobs: string;
  /** Their ids (read on PostgreSQL only). */
  jobIds: string[];
}

/**
 * Writes each video's outcome and charge. Only for videos found held (`processing`, leased to
 * `workerId`) under the batch's locks, which nothing can change before this: the statement checks the
 * lease owner again but not the status, which would let either planner read every video in process
 * through the leases' partial index instead of the batch's by primary key. A settled video's fields of
 * the other kind were never written, so writing them null leaves them as they were.
 */
function outcomesUpdate(dialect: "sqlite" | "postgres", slots: Slots<OutcomeParams>): RawBuilder<never> {
  return dialect === "postgres"
    ? sql`update videos as v set
        status = d.status, "rows" = d."rows", row_count = d.row_count,
        platform_video_id = coalesce(d.platform_video_id, v.platform_video_id),
        duration_seconds = d.duration_seconds, chunk_count = d.chunk_count,
        credits_charged = d.credits_charged, error_code = d.error_code,
        error_message = d.error_message, error_retryable = d.error_retryable,
        lease_owner = null, lease_expires_at = null, settled_at = ${slots.now}
      from json_populate_recordset(null::videos, ${slots.batch}::json) as d
      where v.id = any(${slots.ids}::text[]) and v.id = d.id and v.lease_owner = ${slots.workerId}`
    : sql`update videos set
        status = d.status, "rows" = d."rows", row_count = d.row_count,
        platform_video_id = coalesce(d.platform_video_id, videos.platform_video_id),
        duration_seconds = d.duration_seconds, chunk_count = d.chunk_count,
        credits_charged = d.credits_charged, error_code = d.error_code,
        error_message = d.error_message, error_retryable = d.error_retryable,
        lease_owner = null, lease_expires_at = null, settled_at = ${slots.now}
      from (
        select value ->> 'id' as id, value ->> 'status' as status, value ->> 'rows' as "rows",
          value ->> 'platform_video_id' as platform_video_id,
          value ->> 'row_count' as row_count, value ->> 'duration_seconds' as duration_seconds,
          value ->> 'chunk_count' as chunk_count, value ->> 'credits_charged' as credits_charged,
          value ->> 'error_code' as error_code, value ->> 'error_message' as error_message,
          value ->> 'error_retryable' as error_retryable
        from json_each(${slots.batch})
      ) as d
      where videos.id = d.id and videos.lease_owner = ${slots.workerId}`;
}

const jobCountsReturned = sql`queued_count, processing_count, done_count, failed_count, video_count,
  schema_label, credits_charged`;

/**
 * Moves each job's settled videos from `processing` to `done` and `failed`, marks the jobs with
 * failures, adds the charges; answers the counts after.
 */
function jobCountsUpdate(dialect: "sqlite" | "postgres", slots: Slots<JobCountParams>): RawBuilder<never> {
  return dialect === "postgres"
    ? sql`update jobs as j set
        processing_count = j.processing_count - d.settled, done_count = j.done_count + d.done,
        failed_count = j.failed_count + d.failed,
        has_failures = case when d.failed > 0 then 1 else j.has_failures end,
        credits_charged = j.credits_charged + d.charge
      from json_to_recordset(${slots.jobs}::json)
        as d(id text, settled integer, done integer, failed integer, charge bigint)
      where j.id = any(${slots.jobIds}::text[]) and j.id = d.id
      returning j.id, ${jobCountsReturned}`
    : sql`update jobs set
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
      returning jobs.id, ${jobCountsReturned}`;
}

export const writeOutcomes = preparedSqlPerStore<OutcomeParams, never>(outcomesUpdate);

export const countInJobs = preparedSqlPerStore<JobCountParams, JobCountsAfter>(jobCountsUpdate);

/**
 * On PostgreSQL, both in one statement: the outcomes as a data-modifying WITH query, which the job
 * counts' UPDATE follows, answering how many outcomes it wrote beside each job's counts (one more
 * column after the UPDATE's RETURNING list).
 */
export const writeOutcomesAndCountJobsPostgres = preparedSqlPerStore<
  OutcomeParams & JobCountParams,
  JobCountsAfter & { outcomes_written: number }
>((dialect, slots) => {
  const counts = jobCountsUpdate(dialect, slots);
  return sql`with outcomes as (${outcomesUpdate(dialect, slots)} returning 1)
    ${counts}, (select count(*) from outcomes)::integer as outcomes_written`;
});

/** Closes jobs whose last video settled (`batch`: JSON of `{ id, status }`). */
export const closeJobs = preparedSqlPerStore<{ batch: string; ids: string[]; now: number }, never>(
  (dialect, slots) =>
    dialect === "postgres"
      ? sql`update jobs as j set status = d.status, completed_at = ${slots.now}
      from json_to_recordset(${slots.batch}::json) as d(id text, status text)
      where j.id = any(${slots.ids}::text[]) and j.id = d.id`
      : sql`update jobs set status = d.status, completed_at = ${slots.now}
      from (select value ->> 'id' as id, value ->> 'status' as status from json_each(${slots.batch})) as d
      where jobs.id = d.id`,
);

/**
 * On PostgreSQL, the batch's locks in one statement, in the one order every claim and settlement
 * keeps (videos, then jobs, then workspaces, each by id): the batch's videos, of which it keeps those
 * `workerId` still holds, then their jobs, then the workspaces of all the batch's videos, whose rows it
 * answers with the held videos' ids. ORDER BY makes FOR UPDATE lock in id order; the CTEs are
 * MATERIALIZED, each run once, and the workspaces are locked only once the jobs' CTE has run (its count
 * is a one-time filter of their scan, their locks taken above it). The videos are locked by id alone
 * and the lease checked on the locked rows: asked for `processing` videos, the planner would read every
 * video in process through the leases' partial index. A video lost to another worker is locked too,
 * which only waits for that worker's settlement to commit (it locks nothing else first).
 */
export const lockBatchPostgres = preparedSqlPerStore<
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
 * On SQLite, the videos of `ids` (a JSON array) that `workerId` still holds. Run once the settlement
 * holds the database's write lock (after its first write), so that nothing can change the answer
 * before its outcomes are written. The CROSS JOIN keeps the ids as the outer loop, each video looked
 * up by primary key (SQLite's planner would otherwise read every video in process through the leases'
 * partial index).
 */
export const heldVideosSqlite = preparedSqlPerStore<{ ids: string; workerId: string }, { id: string }>(
  (_dialect, slots) =>
    sql`select videos.id from json_each(${slots.ids}) as batch cross join videos on videos.id = batch.value
      where videos.lease_owner = ${slots.workerId} and videos.status = 'processing'`,
);
