// PostgreSQL's handover: each step one statement (one round trip), the job's data key read and deleted with it.
import { sql } from "kysely";
import type { HandoverSql } from "../handover-sql.js";
import type { VideoRow } from "../tables.js";

export const postgresHandover: HandoverSql = {
  /** The claim, the videos and the job's data key in one statement. */
  async claim(db, { jobId, token, now, until }) {
    const { rows } = await sql<VideoRow & { data_key: Buffer | null; returned_at: number | null }>`
      with claimed as (
        update jobs set handover_claim = ${token}, handover_claimed_until = ${until}
        where id = ${jobId} and handed_over_at is null
          and (handover_claimed_until is null or handover_claimed_until <= ${now})
        returning id, handover_returned_at
      )
      select videos.*, job_keys.data_key, claimed.handover_returned_at as returned_at
      from claimed
      join videos on videos.job_id = claimed.id
      left join job_keys on job_keys.job_id = claimed.id
      order by videos.position`.execute(db);
    if (rows.length === 0) return undefined;
    const videos = rows.map(({ data_key: _key, returned_at: _returned, ...video }) => video);
    const [first] = rows;
    return { videos, dataKey: first?.data_key ?? null, final: first?.returned_at != null };
  },

  /**
   * One statement: the job marked handed over, its values cleared and its key deleted, each part only
   * if this read still holds the claim. The key's partition is answered so that only it is rewritten.
   */
  async complete(db, { jobId, token, now }) {
    const { rows } = await sql<{ completed: boolean; key_partition: string | null }>`
      with completed as (
        update jobs set handed_over_at = ${now}, handover_claim = null, handover_claimed_until = null
        where id = ${jobId} and handover_claim = ${token}
        returning id
      ),
      cleared as (
        update videos set rows = null, submitted_url = null
        where job_id = ${jobId} and exists (select 1 from completed)
      ),
      job_key as (
        delete from job_keys
        where job_id = ${jobId} and exists (select 1 from completed)
        returning tableoid::regclass::text as key_partition
      )
      select exists (select 1 from completed) as completed,
        (select key_partition from job_key limit 1) as key_partition`.execute(db);
    const [row] = rows;
    if (!row?.completed) return undefined;
    return { keyPartition: row.key_partition ?? undefined };
  },
};
