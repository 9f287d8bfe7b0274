// PostgreSQL's queue: a claim is one statement that locks, skipping rows other workers hold; jobs' data keys.
import { sql } from "kysely";
import { preparedSqlPerStore } from "../prepared-query.js";
import {
  type Admission,
  admissionsPerClaim,
  type ClaimTerms,
  fairShareWindow,
  type TakenVideo,
  type VideoQueueSql,
} from "../video-queue-sql.js";

/**
 * The lapsed leases and then queued videos, picked, locked and taken in one statement. The picks are
 * MATERIALIZED CTEs, each run once (as a sub-select of the UPDATE, the planner may run a `LIMIT ...
 * SKIP LOCKED` sub-select again per row, each run skipping the rows the runs before took, so that one
 * claim of 4 videos took the whole queue); the UPDATE finds its rows by primary key from an array of
 * their ids (joined to the CTEs instead, the planner, not knowing the limit, read every video). The
 * locked rows cannot change before the UPDATE, so it checks nothing again.
 *
 * The queued ones are shared fairly between workspaces (see `VideoQueueSql.take`): the first queued
 * videos no other claim holds (`window` of them) are locked, each ranked by how many videos its
 * workspace would hold once it is taken (those held now, by every worker, through the leases' partial
 * index, and its own place among its workspace's candidates), and the least served taken. The ones
 * locked but not taken are free again at the commit, a moment later.
 */
const claimStatement = preparedSqlPerStore<ClaimTerms & { window: number }, TakenVideo & { lapsed: boolean }>(
  (_dialect, slots) => sql`
    with lapsed as materialized (
      -- Status as a literal: the planner then uses the leases' partial index (migration 0005).
      select id from videos
      where status = 'processing' and lease_expires_at < ${slots.now}
      order by lease_expires_at limit ${slots.limit}
      for update skip locked
    ), room as materialized (
      select greatest(${slots.limit} - (select count(*) from lapsed), 0) as places
    ), held as materialized (
      select workspace_id, count(*) as total, count(*) filter (where lease_owner = ${slots.workerId}) as mine
      from videos where status = 'processing' group by workspace_id
    ), candidates as materialized (
      select id, workspace_id, priority from videos
      where status = 'queued' and available_at <= ${slots.now}
      order by priority, id
      limit case when (select places from room) > 0 then ${slots.window} else 0 end
      for update skip locked
    ), queued as materialized (
      select id from (
        select c.id, c.priority,
          coalesce(h.total, 0) + row_number() over by_place as served,
          coalesce(h.mine, 0) + row_number() over by_place as mine
        from candidates c left join held h on h.workspace_id = c.workspace_id
        window by_place as (partition by c.workspace_id order by c.priority, c.id)
      ) ranked
      where mine <= ${slots.workspaceCap}
      order by served, priority, id limit (select places from room)
    )
    update videos as v
    set status = 'processing', lease_owner = ${slots.workerId}, lease_expires_at = ${slots.leaseUntil},
      claims = v.claims + 1
    where v.id = any(array(select id from lapsed union all select id from queued))
    returning v.id, v.job_id, v.workspace_id, v.platform_video_id, v.claims,
      v.id = any(array(select id from lapsed)) as lapsed`,
);

export const postgresVideoQueue: VideoQueueSql = {
  async take(db, trx, terms) {
    const taken = await claimStatement(db).rows(trx, { ...terms, window: terms.limit + fairShareWindow });
    return { lapsed: taken.filter((v) => v.lapsed), queued: taken.filter((v) => !v.lapsed) };
  },
  /**
   * Locked first, skipping those another worker is admitting (SKIP LOCKED), then deleted. A statement of
   * its own: as a sub-select of the DELETE, the planner may run a `LIMIT ... SKIP LOCKED` sub-select
   * again per row (see `claimStatement`).
   */
  async takeAdmissions(_db, trx) {
    const picked = await trx
      .selectFrom("job_admissions")
      .selectAll()
      .orderBy("created_at")
      .limit(admissionsPerClaim.jobs)
      .forUpdate()
      .skipLocked()
      .execute();
    // The ones that begin before the videos' limit; the others stay for the next claim.
    const taken: Admission[] = [];
    let videos = 0;
    for (const admission of picked) {
      if (videos >= admissionsPerClaim.videos) break;
      taken.push(admission);
      videos += (JSON.parse(admission.platform_video_ids) as string[]).length;
    }
    if (taken.length === 0) return [];
    await trx
      .deleteFrom("job_admissions")
      .where((eb) =>
        eb(
          eb.refTuple("workspace_id", "job_id"),
          "in",
          taken.map((admission) => eb.tuple(admission.workspace_id, admission.job_id)),
        ),
      )
      .execute();
    return taken;
  },
  /**
   * Looked up by a list of ids rather than joined, so that PostgreSQL reads only the partitions holding
   * them (a join would lock every partition, and wait behind a partition's rewrite after a handover).
   */
  dataKeysOf: (trx, jobIds) =>
    trx.selectFrom("job_keys").select(["job_id", "data_key"]).where("job_id", "in", jobIds).execute(),
  // A sub-select by the job's id, which the planner prunes to the key's partition.
  dataKeyOfJob: (jobId) => sql<Buffer | null>`(select data_key from job_keys where job_id = ${jobId})`,
};
