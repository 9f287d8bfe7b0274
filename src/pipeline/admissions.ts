// Admitting accepted jobs to the queue: their videos become rows of `videos` when a worker next claims.
import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import { newId } from "../domain/ids.js";
import type { Store } from "../store/database.js";
import { type PreparedQuery, prepareQuery, preparedSqlPerStore } from "../store/prepared-query.js";
import type { Database, JobAdmissionsTable } from "../store/tables.js";

type Admission = Selectable<JobAdmissionsTable>;

/**
 * What one claim admits at most: 50 jobs, and no job once 1,000 videos are in (the first job is
 * admitted whatever its size). A backlog (after the workers were down) is admitted over the next
 * claims, each a short transaction, so that a claim never writes tens of thousands of rows at once.
 */
const jobsPerClaim = 50;
const videosPerClaim = 1000;

/**
 * Turns up to `jobsPerClaim` waiting jobs into queued videos, inside the caller's claim transaction,
 * before it picks videos: a submission writes only its job and one admission row (migration 0006),
 * and its videos take the queue places it was given, so the order of admission changes nothing.
 *
 * The rows are taken by a DELETE, so that each is admitted once: on SQLite it runs under the single
 * write lock, as the claim's first statement (a read first would begin a read transaction that cannot
 * always become a write one); on PostgreSQL they are locked first, skipping those another worker is
 * admitting (SKIP LOCKED).
 */
export async function admitWaitingJobs(store: Store, trx: Transaction<Database>, now: number) {
  const admissions = store.dialect === "postgres" ? await takePostgres(trx) : await takeSqlite(store, trx);
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

/** The first `jobsPerClaim` rows, and of those the ones that begin before `videosPerClaim` videos. */
const takeSqliteStatement = preparedSqlPerStore<Record<string, never>, Admission>(
  () => sql`
    delete from job_admissions where rowid in (
      select admission from (
        select admission, sum(size) over (order by admission) - size as videos_before
        from (
          select rowid as admission, json_array_length(platform_video_ids) as size
          from job_admissions order by rowid limit ${sql.lit(jobsPerClaim)}
        )
      )
      where videos_before < ${sql.lit(videosPerClaim)}
    )
    returning *`,
);

async function takeSqlite(store: Store, trx: Transaction<Database>): Promise<Admission[]> {
  return takeSqliteStatement(store.db).rows(trx, {});
}

async function takePostgres(trx: Transaction<Database>): Promise<Admission[]> {
  // A statement of its own: as a sub-select of the DELETE, the planner may run a `LIMIT ... SKIP
  // LOCKED` sub-select again per row (see `pick` in claims.ts).
  const picked = await trx
    .selectFrom("job_admissions")
    .selectAll()
    .orderBy("created_at")
    .limit(jobsPerClaim)
    .forUpdate()
    .skipLocked()
    .execute();
  // The ones that begin before `videosPerClaim` videos; the others stay for the next claim.
  const taken: Admission[] = [];
  let videos = 0;
  for (const admission of picked) {
    if (videos >= videosPerClaim) break;
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
