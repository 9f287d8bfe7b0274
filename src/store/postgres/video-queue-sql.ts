// PostgreSQL's queue: a claim is one statement that locks, skipping rows other workers hold; jobs' data keys.
import { sql } from "kysely";
import { preparedSqlPerStore } from "../prepared-query.js";
import {
  type Admission,
  admissionsPerClaim,
  type ClaimTerms,
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
 */
const claimStatement = preparedSqlPerStore<ClaimTerms, TakenVideo & { lapsed: boolean }>(
  (_dialect, slots) => sql`
    with lapsed as materialized (
      -- Status as a literal: the planner then uses the leases' partial index (migration 0005).
      select id from videos
      where status = 'processing' and lease_expires_at < ${slots.now}
      order by lease_expires_at limit ${slots.limit}
      for update skip locked
    ), queued as materialized (
      select id from videos
      where status = 'queued' and available_at <= ${slots.now}
      order by priority, id limit greatest(${slots.limit} - (select count(*) from lapsed), 0)
      for update skip locked
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
    const taken = await claimStatement(db).rows(trx, terms);
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
