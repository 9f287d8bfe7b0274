// SQLite's queue: two UPDATEs per claim under the database's single write lock; no data keys.
import { sql } from "kysely";
import { preparedPerStore, preparedSqlPerStore } from "../prepared-query.js";
import {
  type Admission,
  admissionsPerClaim,
  type ClaimTerms,
  fairShareWindow,
  type TakenVideo,
  type VideoQueueSql,
} from "../video-queue-sql.js";

/** Videos whose lease ran out, taken over: the pick is a sub-select (see `take`). */
const takeLapsed = preparedPerStore<ClaimTerms, TakenVideo>((db, slots) =>
  db
    .updateTable("videos")
    .set((eb) => ({
      lease_owner: slots.workerId,
      lease_expires_at: slots.leaseUntil,
      claims: eb("claims", "+", 1),
    }))
    .where("id", "in", (eb) =>
      eb
        .selectFrom("videos")
        .select("id")
        // Status as a literal: the planner then uses the leases' partial index (migration 0005).
        .where("status", "=", sql.lit("processing"))
        .where("lease_expires_at", "<", slots.now)
        .orderBy("lease_expires_at")
        .limit(slots.limit),
    )
    .where("status", "=", "processing")
    .where("lease_expires_at", "<", slots.now)
    .returning(["id", "job_id", "workspace_id", "platform_video_id", "claims"]),
);

/**
 * Queued videos shared fairly between workspaces (see `VideoQueueSql.take`): the first queued videos
 * (`window` of them, through the queue's partial index), each ranked by how many videos its workspace
 * would hold once it is taken (those held now, by every worker, and its own place among its
 * workspace's candidates), the places least served first. The held count reads only videos being
 * processed, through the leases' partial index (migration 0005): a few per worker. The UPDATE checks the
 * state again; on SQLite it runs under the single write lock.
 */
const takeQueued = preparedSqlPerStore<ClaimTerms & { window: number }, TakenVideo>(
  (_dialect, slots) => sql`
    update videos
    set status = 'processing', lease_owner = ${slots.workerId}, lease_expires_at = ${slots.leaseUntil},
      claims = claims + 1
    where id in (
      with held as (
        select workspace_id, count(*) as total,
          sum(case when lease_owner = ${slots.workerId} then 1 else 0 end) as mine
        from videos where status = 'processing' group by workspace_id
      ), candidates as (
        select id, workspace_id, priority from videos
        where status = 'queued' and available_at <= ${slots.now}
        order by priority, id limit ${slots.window}
      ), ranked as (
        select c.id, c.priority,
          coalesce(h.total, 0) + row_number() over by_place as served,
          coalesce(h.mine, 0) + row_number() over by_place as mine
        from candidates c left join held h on h.workspace_id = c.workspace_id
        window by_place as (partition by c.workspace_id order by c.priority, c.id)
      )
      select id from ranked where mine <= ${slots.workspaceCap}
      order by served, priority, id limit ${slots.limit}
    )
    and status = 'queued'
    returning id, job_id, workspace_id, platform_video_id, claims`,
);

/**
 * The first admission rows a claim admits, and of those the ones that begin before its videos' limit,
 * taken by one DELETE: it runs under the single write lock, as the claim's first statement (a read first
 * would begin a read transaction that cannot always become a write one).
 */
const takeAdmissions = preparedSqlPerStore<Record<string, never>, Admission>(
  () => sql`
    delete from job_admissions where rowid in (
      select admission from (
        select admission, sum(size) over (order by admission) - size as videos_before
        from (
          select rowid as admission, json_array_length(platform_video_ids) as size
          from job_admissions order by rowid limit ${sql.lit(admissionsPerClaim.jobs)}
        )
      )
      where videos_before < ${sql.lit(admissionsPerClaim.videos)}
    )
    returning *`,
);

export const sqliteVideoQueue: VideoQueueSql = {
  /**
   * Two UPDATEs, each with its pick as a sub-select: SQLite runs such a sub-select once, under its
   * single write lock (a SELECT first would open a read transaction that cannot always become a write
   * one), and the UPDATE checks the state again. Both prepared: built and compiled by Kysely for every
   * claim, they cost more than SQLite took to run them.
   */
  async take(db, trx, terms) {
    const lapsed = await takeLapsed(db).rows(trx, terms);
    const room = terms.limit - lapsed.length;
    if (room <= 0) return { lapsed, queued: [] };
    const queued = await takeQueued(db).rows(trx, {
      ...terms,
      limit: room,
      window: room + fairShareWindow,
    });
    return { lapsed, queued };
  },
  takeAdmissions: (db, trx) => takeAdmissions(db).rows(trx, {}),
  // SQLite seals nothing: the eraser removes handed-over values from its file (store/storage-eraser.ts).
  dataKeysOf: () => Promise.resolve([]),
  dataKeyOfJob: () => sql<null>`null`,
};
