// Claiming videos to work on, with leases: the store is the queue, shared by every worker process.
import { sql, type Transaction } from "kysely";
import { countJobsStarted } from "../credits/usage-counters.js";
import type { SchemaDefinition } from "../domain/schema-definition.js";
import { type TranscribeMode, transcribeModeOf } from "../domain/transcribe-mode.js";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import { preparedSqlPerStore } from "../store/prepared-query.js";
import type { Database } from "../store/tables.js";
import { admitWaitingJobs } from "./admissions.js";

export interface ClaimedVideo {
  readonly rowId: string;
  readonly jobId: string;
  readonly workspaceId: string;
  readonly videoId: string;
  readonly language: string | undefined;
  /** When to transcribe the video's audio instead of reading its captions (the job's `transcribe`). */
  readonly transcribe: TranscribeMode;
  /** Whether a transcript the workspace kept may stand in for reading the video (the job's `reuse`). */
  readonly reuse: boolean;
  readonly schema: SchemaDefinition;
  /** How many times the video has been claimed, this claim included. */
  readonly claims: number;
  /** The job's data key, which its rows are sealed under (PostgreSQL; null on SQLite and for older jobs). */
  readonly dataKey: Buffer | null;
  /** The job was cancelled: the video fails with `cancelled` instead of being worked on. */
  readonly cancelled: boolean;
}

/** No cap on one workspace's videos in a worker: a workspace alone may hold all its places. */
const noWorkspaceCap = 1_000_000_000;

/**
 * Claims up to `limit` videos for `workerId` until `now + leaseMs`: first videos whose holder went
 * silent (its lease ran out), then queued ones shared fairly between the workspaces with work waiting
 * (each place to the least served; never more than `workspaceCap` of one workspace in this worker:
 * store/video-queue-sql.ts), after admitting jobs submitted since the last claim (admissions.ts).
 *
 * No two workers can take the same video: on PostgreSQL the candidates are locked, skipping rows
 * another worker has locked (SKIP LOCKED), and a locked row cannot change before the UPDATE takes it;
 * on SQLite each UPDATE runs under the database's single write lock and checks the state again.
 */
export async function claimVideos(
  store: Store,
  workerId: string,
  limit: number,
  leaseMs: number,
  now = Date.now(),
  workspaceCap: number | undefined = noWorkspaceCap,
): Promise<ClaimedVideo[]> {
  if (limit <= 0) return [];
  return store.db.transaction().execute(async (trx) => {
    await admitWaitingJobs(store, trx, now);
    const { lapsed, queued } = await databaseSql(store.dialect).videoQueue.take(store.db, trx, {
      workerId,
      limit,
      leaseUntil: now + leaseMs,
      now,
      workspaceCap: workspaceCap ?? noWorkspaceCap,
    });
    const claimed = [...lapsed, ...queued];
    if (claimed.length === 0) return [];
    // The jobs that started videos answer their facts from the count's UPDATE; a job whose videos
    // were all taken over from lapsed leases is read (the rare case: a worker died).
    const jobById = await countStartedVideos(store, trx, queued);
    const unread = [...new Set(claimed.map((v) => v.job_id))].filter((id) => !jobById.has(id));
    for (const job of await readJobs(store, trx, unread)) jobById.set(job.id, job);
    // Each job's schema parsed once, and the one object shared by its videos (the extractor keeps what
    // it builds from a schema by object).
    const schemas = new Map<string, SchemaDefinition>();
    return claimed.map((video) => {
      const job = jobById.get(video.job_id);
      if (!job) throw new Error(`Video ${video.id} belongs to job ${video.job_id}, which does not exist.`);
      let schema = schemas.get(job.id);
      if (!schema) {
        schema = JSON.parse(job.schema_definition) as SchemaDefinition;
        schemas.set(job.id, schema);
      }
      return {
        rowId: video.id,
        jobId: video.job_id,
        workspaceId: video.workspace_id,
        videoId: video.platform_video_id,
        language: job.language ?? undefined,
        transcribe: transcribeModeOf(job.transcribe),
        reuse: job.reuse_transcripts !== 0,
        schema,
        claims: video.claims,
        dataKey: job.data_key,
        cancelled: job.cancelled_at !== null,
      };
    });
  });
}

/** What a claim needs of a job; `data_key` is null on SQLite and for jobs without one. */
interface ClaimedJob {
  id: string;
  schema_definition: string;
  language: string | null;
  transcribe: string | null;
  reuse_transcripts: number | null;
  cancelled_at: number | null;
  data_key: Buffer | null;
}

/**
 * The jobs of `jobIds` as a claim needs them, with their data keys (store/sealed-values.ts), which only
 * PostgreSQL jobs have.
 */
async function readJobs(store: Store, trx: Transaction<Database>, jobIds: string[]): Promise<ClaimedJob[]> {
  if (jobIds.length === 0) return [];
  const jobs = await trx
    .selectFrom("jobs")
    .select(["id", "schema_definition", "language", "transcribe", "reuse_transcripts", "cancelled_at"])
    .where("id", "in", jobIds)
    .execute();
  const keys = await databaseSql(store.dialect).videoQueue.dataKeysOf(trx, jobIds);
  const keyOf = new Map(keys.map((key) => [key.job_id, key.data_key]));
  return jobs.map((job) => ({ ...job, data_key: keyOf.get(job.id) ?? null }));
}

/**
 * Moves each job's count of `started` videos (1 in the common case) from `queued` to `processing`,
 * and the usage count of jobs whose first videos started likewise. The counts' UPDATE answers what a
 * claim needs of the job, its data key too where the database keeps one, so a claim reads nothing more
 * of a job that started videos.
 */
const startVideosInJob = preparedSqlPerStore<
  { count: number; jobId: string },
  ClaimedJob & { queued_count: number; video_count: number }
>(
  (dialect, slots) => sql`
    update jobs
    set queued_count = queued_count - ${slots.count}, processing_count = processing_count + ${slots.count}
    where id = ${slots.jobId}
    returning id, queued_count, video_count, schema_definition, language, transcribe, reuse_transcripts,
      cancelled_at,
      ${databaseSql(dialect).videoQueue.dataKeyOfJob(slots.jobId)} as data_key`,
);

/** Moves newly started videos from the jobs' `queued` counts to `processing`, and jobs likewise in usage; answers the jobs. */
export async function countStartedVideos(
  store: Store,
  trx: Transaction<Database>,
  started: readonly { job_id: string; workspace_id: string }[],
): Promise<Map<string, ClaimedJob>> {
  const perJob = new Map<string, { workspaceId: string; count: number }>();
  for (const video of started) {
    const entry = perJob.get(video.job_id) ?? { workspaceId: video.workspace_id, count: 0 };
    entry.count++;
    perJob.set(video.job_id, entry);
  }
  // Jobs, then workspaces, each in id order: every claim and settlement locks rows in that order,
  // so that two of them never wait on each other in a circle (a deadlock on PostgreSQL).
  const jobs = new Map<string, ClaimedJob>();
  const jobsStarted = new Map<string, number>();
  for (const [jobId, { workspaceId, count }] of [...perJob].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const job = await startVideosInJob(store.db).first(trx, { count, jobId });
    if (!job) throw new Error(`Job ${jobId} of a claimed video does not exist.`);
    jobs.set(jobId, {
      id: job.id,
      schema_definition: job.schema_definition,
      language: job.language,
      transcribe: job.transcribe,
      reuse_transcripts: job.reuse_transcripts,
      cancelled_at: job.cancelled_at,
      data_key: job.data_key,
    });
    // The job's first videos started: in usage it moves from `queued` to `processing`.
    if (job.queued_count + count === job.video_count) {
      jobsStarted.set(workspaceId, (jobsStarted.get(workspaceId) ?? 0) + 1);
    }
  }
  for (const [workspaceId, count] of [...jobsStarted].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await countJobsStarted(trx, workspaceId, count);
  }
  return jobs;
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
