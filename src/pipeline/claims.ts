// Claiming videos to work on, with leases: the store is the queue, shared by every worker process.
import { type SelectQueryBuilder, sql, type Transaction } from "kysely";
import { countJobsStarted } from "../credits/usage-counters.js";
import type { SchemaDefinition } from "../domain/schema-definition.js";
import type { Store } from "../store/database.js";
import type { Database } from "../store/tables.js";
import { admitWaitingJobs } from "./admissions.js";

export interface ClaimedVideo {
  readonly videoId: string;
  readonly jobId: string;
  readonly workspaceId: string;
  readonly platformVideoId: string;
  readonly language: string | undefined;
  readonly schema: SchemaDefinition;
  /** How many times the video has been claimed, this claim included. */
  readonly claims: number;
  /** The job's data key, which its rows are sealed under (PostgreSQL; null on SQLite and for older jobs). */
  readonly dataKey: Buffer | null;
  /** The job was cancelled: the video fails with `cancelled` instead of being worked on. */
  readonly cancelled: boolean;
}

/**
 * The ids `candidates` picks. On PostgreSQL they are picked, and locked, by a statement of their own:
 * as a sub-select of the UPDATE, the planner may run a `LIMIT ... FOR UPDATE SKIP LOCKED` sub-select
 * again for each row it updates, each run skipping the rows the runs before took, so that one claim of
 * 4 videos took the whole queue. SQLite runs such a sub-select once, under its single write lock, so
 * there it stays a sub-select (a SELECT first would open a read transaction that cannot always
 * become a write one).
 */
async function pick(
  candidates: SelectQueryBuilder<Database, "videos", { id: string }>,
  lockRows: boolean,
): Promise<SelectQueryBuilder<Database, "videos", { id: string }> | string[]> {
  if (!lockRows) return candidates;
  const rows = await candidates.forUpdate().skipLocked().execute();
  return rows.map((row) => row.id);
}

const nothingPicked = (picked: unknown) => Array.isArray(picked) && picked.length === 0;

/**
 * Claims up to `limit` videos for `workerId` until `now + leaseMs`: first videos whose holder went
 * silent (its lease ran out), then queued ones in fair-queue order (lowest priority number first),
 * after admitting jobs submitted since the last claim (admissions.ts).
 *
 * No two workers can take the same video: on PostgreSQL the candidates are locked, skipping rows
 * another worker has locked (SKIP LOCKED), and the UPDATE checks their state again; on SQLite each
 * UPDATE runs under the database's single write lock.
 */
export async function claimVideos(
  store: Store,
  workerId: string,
  limit: number,
  leaseMs: number,
  now = Date.now(),
): Promise<ClaimedVideo[]> {
  if (limit <= 0) return [];
  return store.db.transaction().execute(async (trx) => {
    await admitWaitingJobs(store, trx, now);
    const lockRows = store.dialect === "postgres";
    const lapsed = await pick(
      trx
        .selectFrom("videos")
        .select("id")
        // Status as a literal: the planner then uses the leases' partial index (migration 0005).
        .where("status", "=", sql.lit("processing"))
        .where("lease_expires_at", "<", now)
        .orderBy("lease_expires_at")
        .limit(limit),
      lockRows,
    );
    const expired = nothingPicked(lapsed)
      ? []
      : await trx
          .updateTable("videos")
          .set((eb) => ({
            lease_owner: workerId,
            lease_expires_at: now + leaseMs,
            claims: eb("claims", "+", 1),
          }))
          .where("id", "in", lapsed)
          .where("status", "=", "processing")
          .where("lease_expires_at", "<", now)
          .returning(["id", "job_id", "workspace_id", "platform_video_id", "claims"])
          .execute();

    const room = limit - expired.length;
    const waiting =
      room <= 0
        ? []
        : await pick(
            trx
              .selectFrom("videos")
              .select("id")
              .where("status", "=", sql.lit("queued"))
              .where("available_at", "<=", now)
              .orderBy("priority")
              .orderBy("id")
              .limit(room),
            lockRows,
          );
    const queued = nothingPicked(waiting)
      ? []
      : await trx
          .updateTable("videos")
          .set((eb) => ({
            status: "processing",
            lease_owner: workerId,
            lease_expires_at: now + leaseMs,
            claims: eb("claims", "+", 1),
          }))
          .where("id", "in", waiting)
          .where("status", "=", "queued")
          .returning(["id", "job_id", "workspace_id", "platform_video_id", "claims"])
          .execute();
    await countStartedVideos(trx, queued);

    const claimed = [...expired, ...queued];
    if (claimed.length === 0) return [];
    const jobIds = [...new Set(claimed.map((v) => v.job_id))];
    const jobs = await trx
      .selectFrom("jobs")
      .select(["id", "schema_definition", "language", "cancelled_at"])
      .where("id", "in", jobIds)
      .execute();
    // Each job's schema parsed once, and the one object shared by its videos (the extractor keeps what
    // it builds from a schema by object).
    const jobById = new Map(
      jobs.map((j) => [
        j.id,
        {
          language: j.language,
          schema: JSON.parse(j.schema_definition) as SchemaDefinition,
          cancelled: j.cancelled_at !== null,
        },
      ]),
    );
    const keys = await dataKeysOf(store, trx, jobIds);
    return claimed.map((video) => {
      const job = jobById.get(video.job_id);
      if (!job) throw new Error(`Video ${video.id} belongs to job ${video.job_id}, which does not exist.`);
      return {
        videoId: video.id,
        jobId: video.job_id,
        workspaceId: video.workspace_id,
        platformVideoId: video.platform_video_id,
        language: job.language ?? undefined,
        schema: job.schema,
        claims: video.claims,
        dataKey: keys.get(video.job_id) ?? null,
        cancelled: job.cancelled,
      };
    });
  });
}

/**
 * The data keys of the jobs (store/sealed-values.ts), which only PostgreSQL jobs have. Looked up by a
 * list of ids rather than joined, so that PostgreSQL reads only the partitions holding them (a join
 * would lock every partition, and wait behind a partition's rewrite after a handover).
 */
async function dataKeysOf(
  store: Store,
  trx: Transaction<Database>,
  jobIds: string[],
): Promise<Map<string, Buffer>> {
  if (store.dialect !== "postgres") return new Map();
  const keys = await trx
    .selectFrom("job_keys")
    .select(["job_id", "data_key"])
    .where("job_id", "in", jobIds)
    .execute();
  return new Map(keys.map((key) => [key.job_id, key.data_key]));
}

/** Moves newly started videos from the jobs' `queued` counts to `processing`, and jobs likewise in usage. */
export async function countStartedVideos(
  trx: Transaction<Database>,
  started: { job_id: string; workspace_id: string }[],
) {
  const perJob = new Map<string, { workspaceId: string; count: number }>();
  for (const video of started) {
    const entry = perJob.get(video.job_id) ?? { workspaceId: video.workspace_id, count: 0 };
    entry.count++;
    perJob.set(video.job_id, entry);
  }
  // Jobs, then workspaces, each in id order: every claim and settlement locks rows in that order,
  // so that two of them never wait on each other in a circle (a deadlock on PostgreSQL).
  const jobsStarted = new Map<string, number>();
  for (const [jobId, { workspaceId, count }] of [...perJob].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const job = await trx
      .updateTable("jobs")
      .set((eb) => ({
        queued_count: eb("queued_count", "-", count),
        processing_count: eb("processing_count", "+", count),
      }))
      .where("id", "=", jobId)
      .returning(["queued_count", "video_count"])
      .executeTakeFirstOrThrow();
    // The job's first videos started: in usage it moves from `queued` to `processing`.
    if (job.queued_count + count === job.video_count) {
      jobsStarted.set(workspaceId, (jobsStarted.get(workspaceId) ?? 0) + 1);
    }
  }
  for (const [workspaceId, jobs] of [...jobsStarted].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await countJobsStarted(trx, workspaceId, jobs);
  }
}

/** Those of `jobIds` that their owners cancelled (the worker abandons their videos in flight). */
export async function cancelledJobsAmong(store: Store, jobIds: readonly string[]): Promise<Set<string>> {
  if (jobIds.length === 0) return new Set();
  const cancelled = await store.db
    .selectFrom("jobs")
    .select("id")
    .where("id", "in", [...jobIds])
    .where("cancelled_at", "is not", null)
    .execute();
  return new Set(cancelled.map((job) => job.id));
}

/**
 * Extends the leases on those of `videoIds` this worker still holds; answers their ids. A video left out
 * was lost: another worker took it over after its lease ran out.
 */
export async function renewLeases(
  store: Store,
  workerId: string,
  videoIds: string[],
  leaseMs: number,
  now = Date.now(),
): Promise<Set<string>> {
  if (videoIds.length === 0) return new Set();
  const renewed = await store.db
    .updateTable("videos")
    .set({ lease_expires_at: now + leaseMs })
    .where("id", "in", videoIds)
    .where("lease_owner", "=", workerId)
    .where("status", "=", "processing")
    .returning("id")
    .execute();
  return new Set(renewed.map((video) => video.id));
}

/** Gives videos back at once (on shutdown), so another worker takes them over without waiting for the lease. */
export async function releaseVideos(store: Store, workerId: string, videoIds: string[], now = Date.now()) {
  if (videoIds.length === 0) return;
  await store.db
    .updateTable("videos")
    .set({ lease_expires_at: now - 1 })
    .where("id", "in", videoIds)
    .where("lease_owner", "=", workerId)
    .where("status", "=", "processing")
    .execute();
}
