// The one-time handover of a settled job's rows: taken by exactly one read, put back if its response
// does not reach the client.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Store } from "../store/database.js";
import type { VideoRow } from "../store/tables.js";

/** The rows one read took, and how to put them back. */
export interface HandedOverRows {
  /** The job's videos as they were before the take, rows and submitted URLs included, in order. */
  readonly videos: VideoRow[];
  /** Puts the rows back, unless another read has since taken them (it cannot: they are gone until then). */
  readonly restore: () => Promise<void>;
}

/**
 * Exactly one read wins the conditional update and receives the rows; in the same transaction
 * the rows and the submitted URLs are deleted. If that response then cannot be delivered, the
 * caller puts them back with `restore`, so an undelivered read does not use the handover up.
 * Answers undefined when another read has already taken them.
 */
export async function handOverRows(store: Store, jobId: string): Promise<HandedOverRows | undefined> {
  const takenAt = Date.now();
  const videos = await store.db.transaction().execute(async (trx) => {
    const won = await trx
      .updateTable("jobs")
      .set({ handed_over_at: takenAt })
      .where("id", "=", jobId)
      .where("handed_over_at", "is", null)
      .executeTakeFirst();
    if (won.numUpdatedRows === 0n) return undefined;
    const held = await trx
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
    return held;
  });
  if (!videos) return undefined;
  return { videos, restore: () => restoreHandover(store, jobId, takenAt, videos) };
}

/** Undoes the take made at `takenAt`: the job is unread again and its videos hold their rows. */
async function restoreHandover(store: Store, jobId: string, takenAt: number, videos: VideoRow[]) {
  await store.db.transaction().execute(async (trx) => {
    const undone = await trx
      .updateTable("jobs")
      .set({ handed_over_at: null })
      .where("id", "=", jobId)
      .where("handed_over_at", "=", takenAt)
      .executeTakeFirst();
    if (undone.numUpdatedRows === 0n) return;
    for (const video of videos) {
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
