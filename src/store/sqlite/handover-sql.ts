// SQLite's handover: a short write transaction for each step, under the database's single write lock.
import type { HandoverSql } from "../handover-sql.js";

export const sqliteHandover: HandoverSql = {
  /** The claim and the read of the videos in one write transaction, so nothing comes between them. */
  claim: (db, { jobId, token, now, until }) =>
    db.transaction().execute(async (trx) => {
      const won = await trx
        .updateTable("jobs")
        .set({ handover_claim: token, handover_claimed_until: until })
        .where("id", "=", jobId)
        .where("handed_over_at", "is", null)
        .where((eb) =>
          eb.or([eb("handover_claimed_until", "is", null), eb("handover_claimed_until", "<=", now)]),
        )
        .returning("handover_returned_at")
        .executeTakeFirst();
      if (!won) return undefined;
      const videos = await trx
        .selectFrom("videos")
        .selectAll()
        .where("job_id", "=", jobId)
        .orderBy("position")
        .execute();
      // SQLite seals nothing: the eraser removes the values from its file (store/storage-eraser.ts).
      return { videos, dataKey: null, final: won.handover_returned_at !== null };
    }),

  complete: (db, { jobId, token, now }) =>
    db.transaction().execute(async (trx) => {
      const won = await trx
        .updateTable("jobs")
        .set({ handed_over_at: now, handover_claim: null, handover_claimed_until: null })
        .where("id", "=", jobId)
        .where("handover_claim", "=", token)
        .executeTakeFirst();
      if (won.numUpdatedRows === 0n) return undefined;
      await trx
        .updateTable("videos")
        .set({ rows: null, submitted_url: null })
        .where("job_id", "=", jobId)
        .execute();
      return { keyPartition: undefined };
    }),
};
