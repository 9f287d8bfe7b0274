// The one-time handover of a settled job's rows: taken by exactly one read, deleted from storage, put
// back if its response does not reach the client.
import type { FastifyReply, FastifyRequest } from "fastify";
import { sql, type Transaction } from "kysely";
import type { Store } from "../store/database.js";
import { openStored } from "../store/sealed-values.js";
import type { StorageEraser } from "../store/storage-eraser.js";
import type { Database, VideoRow } from "../store/tables.js";

/** The rows one read took, and how to put them back. */
export interface HandedOverRows {
  /** The job's videos as they were before the take, in order, their rows and submitted URLs readable. */
  readonly videos: VideoRow[];
  /** Puts the rows back, unless another read has since taken them (it cannot: they are gone until then). */
  readonly restore: () => Promise<void>;
}

/** What the take removed, as stored: what `restore` writes back. */
interface Taken {
  readonly videos: VideoRow[];
  /** The job's data key (PostgreSQL; null on SQLite and for jobs from before keys). */
  readonly dataKey: Buffer | null;
  /** The `job_keys` partition that held the key, to be rewritten without it. */
  readonly keyPartition: string | undefined;
}

/**
 * Exactly one read wins the conditional update and receives the rows; in the same transaction the
 * rows, the submitted URLs and the job's data key are deleted, and once it commits the eraser is told,
 * which removes them from the database's files within seconds (store/storage-eraser.ts). If that
 * response then cannot be delivered, the caller puts them back with `restore`, so an undelivered read
 * does not use the handover up. Answers undefined when another read has already taken them.
 */
export async function handOverRows(
  store: Store,
  eraser: StorageEraser,
  jobId: string,
): Promise<HandedOverRows | undefined> {
  const takenAt = Date.now();
  const taken = await store.db.transaction().execute(async (trx): Promise<Taken | undefined> => {
    const won = await trx
      .updateTable("jobs")
      .set({ handed_over_at: takenAt })
      .where("id", "=", jobId)
      .where("handed_over_at", "is", null)
      .executeTakeFirst();
    if (won.numUpdatedRows === 0n) return undefined;
    if (store.dialect === "postgres") return takePostgres(trx, jobId);
    const videos = await trx
      .selectFrom("videos")
      .selectAll()
      .where("job_id", "=", jobId)
      .orderBy("position")
      .execute();
    await trx
      .updateTable("videos")
      .set({ rows: null, submitted_url: null })
      .where("job_id", "=", jobId)
      .execute();
    // Only PostgreSQL jobs have keys (see store/sealed-values.ts).
    return { videos, dataKey: null, keyPartition: undefined };
  });
  if (!taken) return undefined;
  eraser.afterHandover(taken.keyPartition);
  const { dataKey } = taken;
  const readable = taken.videos.map((video) => ({
    ...video,
    rows: video.rows === null ? null : openStored(dataKey, video.rows),
    submitted_url: video.submitted_url === null ? null : openStored(dataKey, video.submitted_url),
  }));
  return { videos: readable, restore: () => restoreHandover(store, jobId, takenAt, taken) };
}

/**
 * PostgreSQL: the videos as they were, their values cleared and the job's key deleted, in one statement,
 * so that the handover costs no more round trips than it did before keys. Every part of a statement
 * sees the same snapshot, so `held` reads the values the update clears. The key is deleted by job id,
 * so only its partition is touched.
 */
async function takePostgres(trx: Transaction<Database>, jobId: string): Promise<Taken> {
  const { rows } = await sql<VideoRow & { data_key: Buffer | null; key_partition: string | null }>`
    with held as (select * from videos where job_id = ${jobId}),
    cleared as (update videos set rows = null, submitted_url = null where job_id = ${jobId}),
    job_key as (
      delete from job_keys where job_id = ${jobId}
      returning data_key, tableoid::regclass::text as key_partition
    )
    select held.*, job_key.data_key, job_key.key_partition
    from held left join job_key on true
    order by held.position`.execute(trx);
  const videos = rows.map(({ data_key: _key, key_partition: _partition, ...video }) => video);
  return {
    videos,
    dataKey: rows[0]?.data_key ?? null,
    keyPartition: rows[0]?.key_partition ?? undefined,
  };
}

/** Undoes the take made at `takenAt`: the job is unread again and its videos hold their rows, sealed as they were. */
async function restoreHandover(store: Store, jobId: string, takenAt: number, taken: Taken) {
  await store.db.transaction().execute(async (trx) => {
    const undone = await trx
      .updateTable("jobs")
      .set({ handed_over_at: null })
      .where("id", "=", jobId)
      .where("handed_over_at", "=", takenAt)
      .executeTakeFirst();
    if (undone.numUpdatedRows === 0n) return;
    if (taken.dataKey) {
      await trx
        .insertInto("job_keys")
        .values({ job_id: jobId, data_key: taken.dataKey })
        .onConflict((c) => c.column("job_id").doNothing())
        .execute();
    }
    for (const video of taken.videos) {
      await trx
        .updateTable("videos")
        .set({ rows: video.rows, submitted_url: video.submitted_url })
        .where("id", "=", video.id)
        .execute();
    }
  });
}

/**
 * Calls `restore` once the response is over unless it reached the client whole. The rows count as
 * handed over only once this response has been written out whole. When the client goes away mid-body,
 * Node still ends the response as finished (it calls back the pending write as the socket is destroyed),
 * so the socket's error is what tells the two apart.
 */
export function restoreHandoverUnlessDelivered(
  request: FastifyRequest,
  reply: FastifyReply,
  restore: () => Promise<void>,
): void {
  const socket = reply.raw.socket;
  reply.raw.once("close", () => {
    const delivered =
      reply.raw.writableFinished && reply.raw.statusCode === 200 && !(socket?.errored ?? false);
    if (delivered) return;
    restore().catch((error: unknown) =>
      request.log.error({ err: error }, "could not restore an undelivered handover"),
    );
  });
}
