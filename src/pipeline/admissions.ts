// Admitting accepted jobs to the queue: their videos become rows of `videos` when a worker next claims.
import type { Kysely, Transaction } from "kysely";
import { newId } from "../domain/ids.js";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { Database } from "../store/tables.js";
import type { Admission } from "../store/video-queue-sql.js";

/**
 * Turns waiting jobs (at most `admissionsPerClaim`) into queued videos, inside the caller's claim
 * transaction, before it picks videos: a submission writes only its job and one admission row
 * (migration 0006), and its videos take the queue places it was given, so the order of admission
 * changes nothing.
 *
 * The rows are taken by a DELETE, so that each is admitted once, each database's way
 * (store/<database>/video-queue-sql.ts).
 */
export async function admitWaitingJobs(store: Store, trx: Transaction<Database>, now: number) {
  const admissions = await databaseSql(store.dialect).videoQueue.takeAdmissions(store.db, trx);
  await insertQueuedVideos(store, trx, admissions, now);
}

/**
 * Admits one job at once, whatever its place in line (a cancellation fails its videos at once). A
 * claim admitting it meanwhile holds the row on PostgreSQL: this waits, then finds it gone and admitted.
 */
export async function admitJobNow(store: Store, trx: Transaction<Database>, jobId: string, now: number) {
  const taken = await trx.deleteFrom("job_admissions").where("job_id", "=", jobId).returningAll().execute();
  await insertQueuedVideos(store, trx, taken, now);
}

/** The admissions' videos, as queued rows in the places their submissions were given. */
async function insertQueuedVideos(
  store: Store,
  trx: Transaction<Database>,
  admissions: readonly Admission[],
  now: number,
) {
  if (admissions.length === 0) return;
  const values: unknown[] = [];
  for (const admission of admissions) {
    const platformIds = JSON.parse(admission.platform_video_ids) as string[];
    const submittedUrls = JSON.parse(admission.submitted_urls) as string[];
    platformIds.forEach((platformId, position) => {
      values.push(
        newId("vid", now),
        admission.job_id,
        admission.workspace_id,
        position,
        platformId,
        submittedUrls[position] ?? platformId,
        admission.first_priority + position,
        now,
      );
    });
  }
  const inserts = queuedVideoInserts(store.db);
  const rows = values.length / valuesPerVideo;
  for (let start = 0; start < rows; start += videosPerInsert) {
    const count = Math.min(videosPerInsert, rows - start);
    const slice = values.slice(start * valuesPerVideo, (start + count) * valuesPerVideo);
    await inserts.forRows(count).run(trx, slice);
  }
}

/**
 * The values of one queued video, in the order an insert takes them: id, job id, workspace id,
 * position, platform video id, submitted URL, priority, available at.
 */
const valuesPerVideo = 8;

/** Rows per INSERT: far inside both databases' limits on bound parameters (32,766 and 65,535). */
const videosPerInsert = 100;

/**
 * Inserts of 1 to `videosPerInsert` queued videos, one prepared statement per row count, each made on
 * first use. Every row is one more set of values in the same statement, which costs less than a
 * statement per row.
 */
class QueuedVideoInserts {
  private readonly bySize = new Map<number, PreparedQuery<unknown[], never>>();

  constructor(private readonly db: Kysely<Database>) {}

  /** The statement for `count` rows (1 to `videosPerInsert`); its arguments are the rows' values, flat. */
  forRows(count: number): PreparedQuery<unknown[], never> {
    let prepared = this.bySize.get(count);
    if (!prepared) {
      // The one statement whose values are a flat list rather than named: their number varies with `count`.
      prepared = prepareQuery<unknown[], never>(this.db, (db, slots) =>
        db.insertInto("videos").values(
          Array.from({ length: count }, (_, row) => {
            // This row's slots, in the order of valuesPerVideo's comment.
            const at = (column: number) => slots[row * valuesPerVideo + column] as never;
            return {
              id: at(0),
              job_id: at(1),
              workspace_id: at(2),
              position: at(3),
              platform_video_id: at(4),
              submitted_url: at(5),
              status: "queued" as const,
              priority: at(6),
              available_at: at(7),
            };
          }),
        ),
      );
      this.bySize.set(count, prepared);
    }
    return prepared;
  }
}

const insertsByStore = new WeakMap<Kysely<Database>, QueuedVideoInserts>();

function queuedVideoInserts(db: Kysely<Database>): QueuedVideoInserts {
  let inserts = insertsByStore.get(db);
  if (!inserts) {
    inserts = new QueuedVideoInserts(db);
    insertsByStore.set(db, inserts);
  }
  return inserts;
}
