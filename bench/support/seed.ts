// Seeding a benchmark database fast: batched multi-row inserts through the store, counters kept consistent.
import { randomBytes } from "node:crypto";
import type { Insertable } from "kysely";
import { generateApiKey, hashApiKey } from "../../src/domain/api-key-material.js";
import { cycleContaining } from "../../src/domain/billing-cycle.js";
import { newId } from "../../src/domain/ids.js";
import { creditsForDuration } from "../../src/domain/pricing.js";
import { utcDay } from "../../src/domain/timestamps.js";
import { storedRowsText } from "../../src/extraction/stored-rows.js";
import type { Store } from "../../src/store/database.js";
import type { Database, JobAdmissionsTable, JobsTable, VideosTable } from "../../src/store/tables.js";

const dayMs = 86_400_000;

/** The plan every benchmark workspace is on: limits far above any load, so nothing is refused. */
export const benchPlan = {
  id: "bench",
  file: {
    bench: {
      name: "Bench",
      // Far above any load, and small enough that the rate limit's counter (an integer column) cannot
      // overflow within a load: see `freshRateLimits` in http-section.ts.
      requests_per_minute: 100_000_000,
      api_keys: 100,
      webhook_endpoints: 10,
      cycle_allowance: 1_000_000_000,
      videos_per_job: 1000,
    },
  },
};

export const benchSchema = { columns: ["product", "price"] };

/** Rows per INSERT: under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters at 21 columns. */
const rowsPerStatement = 1000;
/** Rows per transaction: big enough to be fast, small enough to keep SQLite's WAL and PostgreSQL's memory in check. */
const rowsPerTransaction = 50_000;

/** Inserts `rows` into `table` in batches; yields to the event loop between transactions. */
export async function insertMany<T extends keyof Database>(
  store: Store,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  for (let t = 0; t < rows.length; t += rowsPerTransaction) {
    const slice = rows.slice(t, t + rowsPerTransaction);
    await store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < slice.length; i += rowsPerStatement) {
        await trx
          .insertInto(table)
          // Kysely's generic insert types do not narrow through T.
          .values(slice.slice(i, i + rowsPerStatement) as any)
          .execute();
      }
    });
  }
}

/** An 11-character id of the YouTube alphabet, random. */
export function platformVideoId(): string {
  return randomBytes(8).toString("base64url").slice(0, 11);
}

export interface SeededWorkspace {
  readonly workspaceId: string;
  /** A live key of the workspace, to load the API with. */
  readonly apiKey: string;
  readonly createdAt: number;
}

/** A workspace on the bench plan with `keys` API keys, `schemas` saved schemas of two versions each. */
export async function seedWorkspace(
  store: Store,
  options: { keys?: number; schemas?: number; now?: number } = {},
): Promise<SeededWorkspace> {
  const now = options.now ?? Date.now();
  const createdAt = now - 100 * dayMs;
  const workspaceId = newId("ws", createdAt);
  await store.db
    .insertInto("workspaces")
    .values({
      id: workspaceId,
      // Names are unique (migration 0007), and the scale section seeds several workspaces.
      name: `bench-${workspaceId}`,
      plan_id: benchPlan.id,
      created_at: createdAt,
      cycle_started_at: cycleContaining(createdAt, now).startedAt,
      balance: 1_000_000_000_000,
      used_this_cycle: 0,
      hard_cap: null,
    })
    .execute();
  await store.db
    .insertInto("credit_ledger")
    .values({
      id: newId("led", createdAt),
      workspace_id: workspaceId,
      kind: "initial",
      amount: 1_000_000_000_000,
      balance_after: 1_000_000_000_000,
      created_at: createdAt,
    })
    .execute();

  const apiKey = generateApiKey("live");
  const keys = [apiKey, ...Array.from({ length: (options.keys ?? 5) - 1 }, () => generateApiKey("live"))];
  await insertMany(
    store,
    "api_keys",
    keys.map((key, i) => ({
      id: newId("key", createdAt + i),
      workspace_id: workspaceId,
      environment: "live" as const,
      label: `Key ${i + 1}`,
      note: i === 0 ? "the benchmark's key" : "",
      key_hash: hashApiKey(key),
      last_four: key.slice(-4),
      created_at: createdAt + i,
      last_used_at: null,
      revoked_at: i === keys.length - 1 && i > 0 ? createdAt + dayMs : null,
    })),
  );

  for (let s = 0; s < (options.schemas ?? 3); s++) {
    const schemaId = newId("sch", createdAt + s);
    await store.db
      .insertInto("schemas")
      .values({
        id: schemaId,
        workspace_id: workspaceId,
        name: `schema-${s + 1}`,
        latest_version: 2,
        created_at: createdAt + s,
      })
      .execute();
    await insertMany(
      store,
      "schema_versions",
      [1, 2].map((version) => ({
        schema_id: schemaId,
        version,
        definition: JSON.stringify(
          version === 1 ? benchSchema : { columns: [...benchSchema.columns, "currency"] },
        ),
        description: `version ${version}`,
        created_at: createdAt + s + version,
      })),
    );
  }
  return { workspaceId, apiKey, createdAt };
}

export interface HistoryOptions {
  readonly jobs: number;
  /** Videos per job, cycling 1..maxVideosPerJob; 0 seeds jobs without videos (only their counts). */
  readonly maxVideosPerJob: number;
  /** The newest jobs that are still running, their videos queued. */
  readonly runningJobs: number;
  /** The newest settled jobs whose rows have not been handed over yet. */
  readonly notHandedOver: number;
  /** Jobs whose videos are really written; the others carry counts only (for the million-job history). */
  readonly jobsWithVideos?: number;
  readonly now?: number;
}

export interface SeededHistory {
  /** A settled job of `maxVideosPerJob` videos whose rows have already been handed over. */
  readonly handedOverJobId: string;
  /** The start of a job id that matches a handful of jobs. */
  readonly searchPrefix: string;
  readonly videoCount: number;
}

interface Totals {
  queued: number;
  processing: number;
  done: number;
  failed: number;
  withFailures: number;
  videosProcessed: number;
  credits: number;
  failures: number;
  nextPriority: number;
}

/**
 * A workspace's history of `jobs` jobs spread over the last 90 days, oldest first: mostly `done`, some
 * `partial` and `failed`, the newest few still running; settled ones handed over except the newest.
 * The workspace's usage counters, daily credits and failure counts are set to match.
 */
export async function seedHistory(
  store: Store,
  workspace: SeededWorkspace,
  options: HistoryOptions,
): Promise<SeededHistory> {
  const now = options.now ?? Date.now();
  const start = now - 90 * dayMs;
  const step = (90 * dayMs - 60_000) / Math.max(1, options.jobs);
  const withVideosFrom = options.jobs - (options.jobsWithVideos ?? options.jobs);
  const totals: Totals = {
    queued: 0,
    processing: 0,
    done: 0,
    failed: 0,
    withFailures: 0,
    videosProcessed: 0,
    credits: 0,
    failures: 0,
    nextPriority: 0,
  };
  let handedOverJobId = "";
  let searchPrefix = "";
  let videoCount = 0;
  const flushEvery = 20_000;
  let jobs: Insertable<JobsTable>[] = [];
  let videos: Insertable<VideosTable>[] = [];
  const flush = async () => {
    await insertMany(store, "jobs", jobs);
    await insertMany(store, "videos", videos);
    jobs = [];
    videos = [];
  };

  for (let i = 0; i < options.jobs; i++) {
    const createdAt = Math.round(start + i * step);
    const jobId = newId("job", createdAt);
    const count = options.maxVideosPerJob === 0 ? 3 : 1 + (i % options.maxVideosPerJob);
    const running = i >= options.jobs - options.runningJobs;
    const handedOver = !running && i < options.jobs - options.runningJobs - options.notHandedOver;
    // Every 97th job failed whole (no captions), every 40th lost one video; the rest succeeded.
    const failedVideos = running ? 0 : i % 97 === 3 ? count : i % 40 === 7 ? 1 : 0;
    const doneVideos = running ? 0 : count - failedVideos;
    const durationSeconds = 120 + (i % 20) * 30;
    const price = creditsForDuration(durationSeconds);
    const status = running
      ? "processing"
      : failedVideos === 0
        ? "done"
        : doneVideos === 0
          ? "failed"
          : "partial";
    const completedAt = running ? null : createdAt + 30_000;
    if (running) totals.queued++;
    else if (failedVideos === 0) totals.done++;
    else totals.failed++;
    if (failedVideos > 0) totals.withFailures++;
    totals.videosProcessed += doneVideos;
    totals.credits += doneVideos * price;
    totals.failures += failedVideos;
    if (handedOver && failedVideos === 0 && count === options.maxVideosPerJob && i > options.jobs / 2) {
      handedOverJobId = jobId;
      // "job_" and 8 of the 10 time characters: the jobs of about one second.
      searchPrefix = jobId.slice(0, 12);
    }
    jobs.push({
      id: jobId,
      workspace_id: workspace.workspaceId,
      schema_label: i % 3 === 0 ? "inline" : "schema-1-v2",
      schema_definition: JSON.stringify(benchSchema),
      language: i % 5 === 0 ? "en" : null,
      status,
      video_count: count,
      queued_count: running ? count : 0,
      processing_count: 0,
      done_count: doneVideos,
      failed_count: failedVideos,
      has_failures: failedVideos > 0 ? 1 : 0,
      credits_charged: doneVideos * price,
      created_at: createdAt,
      completed_at: completedAt,
      handed_over_at: handedOver ? createdAt + 60_000 : null,
    });
    if (i >= withVideosFrom) {
      for (let position = 0; position < count; position++) {
        const platformId = platformVideoId();
        const failed = position >= doneVideos && !running;
        videos.push({
          id: newId("vid", createdAt),
          job_id: jobId,
          workspace_id: workspace.workspaceId,
          position,
          platform_video_id: platformId,
          submitted_url: handedOver ? null : `https://www.youtube.com/watch?v=${platformId}`,
          status: running ? "queued" : failed ? "failed" : "done",
          priority: totals.nextPriority++,
          available_at: createdAt,
          lease_owner: null,
          lease_expires_at: null,
          claims: running ? 0 : 1,
          rows:
            running || failed || handedOver
              ? null
              : storedRowsText({
                  rows: [
                    { product: "widget", price: 5 },
                    { product: "gadget", price: 12.5 },
                    { product: "gizmo", price: null },
                  ],
                  sources: [
                    {
                      startSeconds: 1.2,
                      endSeconds: 6.4,
                      quote: "the widget is five dollars",
                      unverified: [],
                    },
                    {
                      startSeconds: 30.5,
                      endSeconds: 41,
                      quote: "a gadget for twelve fifty",
                      unverified: ["price"],
                    },
                    { startSeconds: 62.25, endSeconds: 70, quote: "and the gizmo", unverified: [] },
                  ],
                }),
          row_count: running || failed ? null : 3,
          duration_seconds: running || failed ? null : durationSeconds,
          chunk_count: running || failed ? null : 1,
          credits_charged: running || failed ? 0 : price,
          error_code: failed ? "no_captions" : null,
          error_message: failed ? "The video has no captions in any language." : null,
          error_retryable: failed ? 0 : null,
          settled_at: completedAt,
        });
        videoCount++;
      }
    }
    if (jobs.length >= flushEvery) await flush();
  }
  await flush();

  await store.db
    .updateTable("workspaces")
    .set({
      jobs_queued: totals.queued,
      jobs_processing: totals.processing,
      jobs_done: totals.done,
      jobs_failed: totals.failed,
      jobs_with_failures: totals.withFailures,
      videos_processed: totals.videosProcessed,
      next_video_priority: totals.nextPriority,
    })
    .where("id", "=", workspace.workspaceId)
    .execute();
  await insertMany(
    store,
    "daily_credits",
    Array.from({ length: 14 }, (_, d) => ({
      workspace_id: workspace.workspaceId,
      day: utcDay(now - d * dayMs),
      credits: Math.round(totals.credits / 90),
    })),
  );
  if (totals.failures > 0) {
    await insertMany(store, "failure_counts", [
      { workspace_id: workspace.workspaceId, code: "no_captions", count: totals.failures },
    ]);
  }
  return { handedOverJobId, searchPrefix, videoCount };
}

/**
 * A queue for the pipeline: `jobCount` running jobs of `videosPerJob` videos each, in fair-queue order,
 * on a workspace that can pay for all of them, stored as submissions store them (an admission row per
 * job, which the worker turns into queued videos). Answers the platform ids, in queue order. Called
 * again for the same workspace, it adds to its queue.
 */
export async function seedQueue(
  store: Store,
  workspace: SeededWorkspace,
  options: { jobCount: number; videosPerJob: number; now?: number },
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const jobs: Insertable<JobsTable>[] = [];
  const admissions: Insertable<JobAdmissionsTable>[] = [];
  const platformIds: string[] = [];
  const { next_video_priority: firstPriority } = await store.db
    .selectFrom("workspaces")
    .select("next_video_priority")
    .where("id", "=", workspace.workspaceId)
    .executeTakeFirstOrThrow();
  for (let j = 0; j < options.jobCount; j++) {
    const jobId = newId("job", now + j);
    jobs.push({
      id: jobId,
      workspace_id: workspace.workspaceId,
      schema_label: "inline",
      schema_definition: JSON.stringify(benchSchema),
      language: null,
      status: "processing",
      video_count: options.videosPerJob,
      queued_count: options.videosPerJob,
      processing_count: 0,
      done_count: 0,
      failed_count: 0,
      has_failures: 0,
      credits_charged: 0,
      created_at: now + j,
      completed_at: null,
      handed_over_at: null,
    });
    const jobPlatformIds = Array.from({ length: options.videosPerJob }, () => platformVideoId());
    admissions.push({
      workspace_id: workspace.workspaceId,
      job_id: jobId,
      first_priority: Number(firstPriority) + platformIds.length,
      platform_video_ids: JSON.stringify(jobPlatformIds),
      submitted_urls: JSON.stringify(jobPlatformIds),
      created_at: now + j,
    });
    platformIds.push(...jobPlatformIds);
  }
  await insertMany(store, "jobs", jobs);
  await insertMany(store, "job_admissions", admissions);
  await store.db
    .updateTable("workspaces")
    .set((eb) => ({
      jobs_queued: eb("jobs_queued", "+", options.jobCount),
      next_video_priority: Number(firstPriority) + platformIds.length,
    }))
    .where("id", "=", workspace.workspaceId)
    .execute();
  return platformIds;
}
