// The scale-out figure: the same queue worked by one `vidrows worker` process, then by two; two
// should finish in at most 0.6 of the time one takes, each video settled (and charged) exactly once.
import { sql } from "kysely";
import type { BenchDatabase, BenchDialect } from "../support/databases.js";
import { log } from "../support/log.js";
import type { BenchOptions } from "../options.js";
import { runPipeline, webVtt } from "./pipeline-section.js";

/** What a run did that it should have done once a video: claims, model requests, charges. */
export interface ExactlyOnce {
  /** Videos not `done` (a failure, or one left unsettled). */
  readonly notDone: number;
  /** Claims beyond one a video: a video taken twice (a lease lost, or claimed by two workers). */
  readonly extraClaims: number;
  /** Model requests beyond one a chunk: work done twice. */
  readonly extraModelRequests: number;
  /** Ledger charges, and videos counted as processed, against the number of videos. */
  readonly charges: number;
  readonly videosProcessed: number;
}

export interface ScaleRun {
  readonly workers: number;
  /** From spawning the workers (start-up included) to the last settlement. */
  readonly seconds: number;
  readonly videosPerSecond: number;
  /** CPU time of all the workers per video, in milliseconds. */
  readonly workerCpuMsPerVideo: number;
  readonly exactlyOnce: ExactlyOnce;
  /** Whether every video was settled, claimed, asked about and charged exactly once. */
  readonly settledOnce: boolean;
}

export interface ScaleSectionResult {
  readonly dialect: BenchDialect;
  readonly videos: number;
  readonly workspaces: number;
  readonly modelDelayMs: number;
  /** VIDROWS_WORKER_VIDEOS and VIDROWS_MODEL_CONCURRENCY of each worker. */
  readonly workerVideos: number;
  readonly modelConcurrency: number;
  readonly one: ScaleRun;
  readonly two: ScaleRun;
  /** Two workers' seconds over one worker's. */
  readonly ratio: number;
}

async function countsOf(database: BenchDatabase) {
  const videos = await database.store.db
    .selectFrom("videos")
    .select([
      sql<number>`count(*)`.as("videos"),
      sql<number>`sum(case when status = 'done' then 0 else 1 end)`.as("not_done"),
      sql<number>`sum(claims)`.as("claims"),
    ])
    .executeTakeFirstOrThrow();
  const charges = await database.store.db
    .selectFrom("credit_ledger")
    .select(sql<number>`count(*)`.as("n"))
    .where("kind", "=", "charge")
    .executeTakeFirstOrThrow();
  const workspace = await database.store.db
    .selectFrom("workspaces")
    .select(sql<number>`sum(videos_processed)`.as("processed"))
    .executeTakeFirstOrThrow();
  return {
    videos: Number(videos.videos),
    notDone: Number(videos.not_done),
    claims: Number(videos.claims),
    charges: Number(charges.n),
    videosProcessed: Number(workspace.processed),
  };
}

async function runWith(dialect: BenchDialect, options: BenchOptions, workers: number): Promise<ScaleRun> {
  const run = await runPipeline(dialect, options, {
    videos: options.scaleVideos,
    videosPerJob: 100,
    // Two minutes of talk in a handful of cues: one chunk (one model request), two credits.
    captions: webVtt(120, 6, 8),
    modelDelayMs: options.scaleModelDelayMs,
    env: {
      LOG_LEVEL: "info",
      VIDROWS_WORKER_VIDEOS: String(options.scaleWorkerVideos),
      VIDROWS_MODEL_CONCURRENCY: String(options.scaleWorkerVideos),
    },
    name: `vidrows-worker-scale-${workers}-${dialect}`,
    workers,
    // Many customers, as in production (and in the scale-out test): settlements of one workspace take
    // turns by design, so a single workspace would measure that lock rather than the workers.
    workspaces: options.scaleWorkspaces,
    inspect: countsOf,
  });
  const counts = run.inspection;
  if (!counts) throw new Error("the scale run read nothing back from the database");
  const exactlyOnce: ExactlyOnce = {
    notDone: counts.notDone,
    extraClaims: counts.claims - counts.videos,
    extraModelRequests: run.model.requests - counts.videos,
    charges: counts.charges,
    videosProcessed: counts.videosProcessed,
  };
  const seconds = (run.last - run.spawnedAt) / 1000;
  const result: ScaleRun = {
    workers,
    seconds,
    videosPerSecond: run.videos / seconds,
    workerCpuMsPerVideo: (run.cpuSeconds * 1000) / run.videos,
    exactlyOnce,
    settledOnce:
      counts.videos === run.videos &&
      exactlyOnce.notDone === 0 &&
      exactlyOnce.extraClaims === 0 &&
      exactlyOnce.extraModelRequests === 0 &&
      exactlyOnce.charges === counts.videos &&
      exactlyOnce.videosProcessed === counts.videos,
  };
  log(
    `${dialect}: ${workers} worker(s) settled ${run.videos} videos in ${seconds.toFixed(2)} s (${result.videosPerSecond.toFixed(0)}/s), exactly once: ${result.settledOnce ? "yes" : `NO ${JSON.stringify(exactlyOnce)}`}`,
  );
  return result;
}

export async function runScaleSection(
  dialect: BenchDialect,
  options: BenchOptions,
): Promise<ScaleSectionResult> {
  const one = await runWith(dialect, options, 1);
  const two = await runWith(dialect, options, 2);
  const ratio = two.seconds / one.seconds;
  log(`${dialect}: two workers took ${ratio.toFixed(2)} of the time one took`);
  return {
    dialect,
    videos: options.scaleVideos,
    workspaces: options.scaleWorkspaces,
    modelDelayMs: options.scaleModelDelayMs,
    workerVideos: options.scaleWorkerVideos,
    modelConcurrency: options.scaleWorkerVideos,
    one,
    two,
    ratio,
  };
}
