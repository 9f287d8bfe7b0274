// The pipeline figures: videos settled per second by one `vidrows worker` with instant captions and
// model, and chunks per second against a model that takes a second to answer.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { type BenchDatabase, type BenchDialect, freshDatabase } from "../support/databases.js";
import { startBenchModel } from "./fake-model.js";
import { writePlanFile } from "../http/http-section.js";
import { log, sleep } from "../support/log.js";
import type { BenchOptions } from "../options.js";
import { cpuSecondsOf, memoryOf, startVidrowsWorker } from "../support/processes.js";
import { seedQueue, seedWorkspace } from "../support/seed.js";
import { switchedOff as offSettings } from "../support/switches.js";

export interface InstantPipelineResult {
  readonly videos: number;
  readonly failed: number;
  readonly failureCodes: Record<string, number>;
  /** Videos over the time from the worker's start to the last settlement. */
  readonly videosPerSecond: number;
  /** Videos over the time from the first settlement to the last (start-up left out). */
  readonly steadyVideosPerSecond: number;
  readonly seconds: number;
  readonly workerVideos: string;
  readonly modelConcurrency: string;
  readonly workerPeakRssMb: number;
  /** The worker's CPU time per settled video (start-up included), in milliseconds. */
  readonly workerCpuMsPerVideo: number;
}

export interface SlowModelResult {
  readonly videos: number;
  readonly chunks: number;
  readonly failed: number;
  readonly modelDelayMs: number;
  readonly modelConcurrency: number;
  /** Model answers over the time from the first request to the last answer. */
  readonly chunksPerSecond: number;
  /** The most model requests the worker had in flight at once. */
  readonly maxInFlight: number;
  readonly seconds: number;
}

/** The instant-model run with one mechanism switched off, between two runs of the default. */
export interface SwitchedOffPipeline {
  readonly switch: string;
  readonly variable: string;
  readonly instant: InstantPipelineResult;
  /** The default's videos per second (first to last settlement) in the runs just before and after. */
  readonly defaultSteadyVideosPerSecond: readonly [number, number];
  /** The default's worker CPU per video in those runs. */
  readonly defaultWorkerCpuMsPerVideo: readonly [number, number];
}

export interface PipelineSectionResult {
  readonly dialect: BenchDialect;
  readonly instant: InstantPipelineResult;
  readonly slowModel: SlowModelResult;
  readonly switchedOff: readonly SwitchedOffPipeline[];
}

/** A WebVTT file of `cues` cues, each `wordsPerCue` words, over `seconds`. */
export function webVtt(seconds: number, cues: number, wordsPerCue: number): string {
  const stamp = (ms: number) => new Date(ms).toISOString().slice(11, 23);
  const step = (seconds * 1000) / cues;
  const words = "we sell the widget for five dollars and the gadget for twelve".split(" ");
  const lines = ["WEBVTT", ""];
  for (let i = 0; i < cues; i++) {
    const text = Array.from({ length: wordsPerCue }, (_, w) => words[(i + w) % words.length]).join(" ");
    lines.push(`${stamp(i * step)} --> ${stamp((i + 1) * step)}`, `${text} ${i}`, "");
  }
  return lines.join("\n");
}

async function settledCount(database: BenchDatabase): Promise<number> {
  const row = await database.store.db
    .selectFrom("videos")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("settled_at", "is not", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function waitForAllSettled(database: BenchDatabase, videos: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const settled = await settledCount(database);
    if (settled >= videos) return;
    if (Date.now() > deadline)
      throw new Error(`only ${settled} of ${videos} videos settled in ${timeoutMs} ms`);
    if (settled !== last && settled > 0 && Math.floor(settled / 500) !== Math.floor(last / 500)) {
      log(`  ${settled}/${videos} settled`);
    }
    last = settled;
    await sleep(100);
  }
}

async function outcomes(database: BenchDatabase) {
  const rows = await database.store.db
    .selectFrom("videos")
    .select([
      "status",
      "error_code",
      sql<number>`count(*)`.as("n"),
      sql<number>`min(settled_at)`.as("first"),
      sql<number>`max(settled_at)`.as("last"),
    ])
    .groupBy(["status", "error_code"])
    .execute();
  const failureCodes: Record<string, number> = {};
  let failed = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const row of rows) {
    if (row.status === "failed") {
      failed += Number(row.n);
      failureCodes[row.error_code ?? "?"] = Number(row.n);
    }
    first = Math.min(first, Number(row.first));
    last = Math.max(last, Number(row.last));
  }
  return { failed, failureCodes, first, last };
}

export interface PipelineRun<Inspection = undefined> {
  videos: number;
  videosPerJob: number;
  /** The captions every video gets. */
  captions: string;
  modelDelayMs: number;
  env: Record<string, string>;
  name: string;
  /** `vidrows worker` processes sharing the queue (started together); 1 without it. */
  workers?: number;
  /** Workspaces the videos are spread over, evenly, in fair-queue order; 1 without it. */
  workspaces?: number;
  /** Reads what else the caller wants to know from the database, once every video has settled. */
  inspect?: (database: BenchDatabase) => Promise<Inspection>;
}

/**
 * Seeds `run.videos` queued videos with captions in a folder, starts the worker processes against a
 * local fake model, and waits until every video has settled. `spawnedAt` is when the first worker was
 * spawned, `startedAt` when every worker had said it runs.
 */
export async function runPipeline<Inspection = undefined>(
  dialect: BenchDialect,
  options: BenchOptions,
  run: PipelineRun<Inspection>,
) {
  const database = await freshDatabase(dialect, options.postgresUrl);
  const plans = writePlanFile();
  const captionsDir = mkdtempSync(join(tmpdir(), "vidrows-bench-captions-"));
  const model = await startBenchModel(run.modelDelayMs);
  try {
    const workspaces = run.workspaces ?? 1;
    const platformIds: string[] = [];
    for (let w = 0; w < workspaces; w++) {
      const workspace = await seedWorkspace(database.store);
      // The videos split as evenly as they go, each workspace's in full jobs and one job of the rest.
      const videos = Math.floor(run.videos / workspaces) + (w < run.videos % workspaces ? 1 : 0);
      const fullJobs = Math.floor(videos / run.videosPerJob);
      const rest = videos % run.videosPerJob;
      if (fullJobs > 0) {
        platformIds.push(
          ...(await seedQueue(database.store, workspace, {
            jobCount: fullJobs,
            videosPerJob: run.videosPerJob,
          })),
        );
      }
      if (rest > 0) {
        platformIds.push(
          ...(await seedQueue(database.store, workspace, { jobCount: 1, videosPerJob: rest })),
        );
      }
    }
    for (const id of platformIds) writeFileSync(join(captionsDir, `${id}.vtt`), run.captions);
    const videos = platformIds.length;
    const workerCount = run.workers ?? 1;
    const spawnedAt = Date.now();
    const started = await Promise.allSettled(
      Array.from({ length: workerCount }, (_, i) =>
        startVidrowsWorker(
          {
            DATABASE_URL: database.url,
            VIDROWS_PLANS: plans.path,
            VIDROWS_CAPTIONS: `dir:${captionsDir}`,
            VIDROWS_LLM_BASE_URL: model.url,
            VIDROWS_LLM_API_KEY: "bench",
            VIDROWS_LLM_MODEL: "bench-model",
            ...run.env,
          },
          {
            cpuProfileDir: options.profile ? join(options.resultsDir, "profiles") : undefined,
            name: workerCount === 1 ? run.name : `${run.name}-${i + 1}`,
          },
        ),
      ),
    );
    const workers = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    const startedAt = Date.now();
    let peakRssMb = 0;
    let cpuSeconds = 0;
    const sampler = setInterval(() => {
      for (const worker of workers) peakRssMb = Math.max(peakRssMb, memoryOf(worker.pid).rssMb);
    }, 100);
    let inspection: Inspection | undefined;
    try {
      const failedStart = started.find((outcome) => outcome.status === "rejected");
      if (failedStart) throw failedStart.reason;
      await waitForAllSettled(database, videos, 600_000);
      inspection = await run.inspect?.(database);
    } finally {
      clearInterval(sampler);
      for (const worker of workers) {
        peakRssMb = Math.max(peakRssMb, memoryOf(worker.pid).highWaterMb);
        cpuSeconds += cpuSecondsOf(worker.pid);
      }
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    const result = await outcomes(database);
    return { ...result, videos, spawnedAt, startedAt, model, peakRssMb, cpuSeconds, inspection };
  } finally {
    await model.close();
    rmSync(captionsDir, { recursive: true, force: true });
    plans.remove();
    await database.drop();
  }
}

/** One worker over the instant model's queue, with `settings` beyond the section's. */
async function measureInstant(
  dialect: BenchDialect,
  options: BenchOptions,
  settings: Readonly<Record<string, string>>,
  name: string,
): Promise<InstantPipelineResult> {
  const env: Record<string, string> = { LOG_LEVEL: "info", ...settings };
  if (options.workerVideos !== undefined) env.VIDROWS_WORKER_VIDEOS = String(options.workerVideos);
  const instant = await runPipeline(dialect, options, {
    videos: options.pipelineVideos,
    videosPerJob: 100,
    // Two minutes of talk in a handful of cues: one chunk, two credits.
    captions: webVtt(120, 6, 8),
    modelDelayMs: 0,
    env,
    name,
  });
  const seconds = (instant.last - instant.startedAt) / 1000;
  const result: InstantPipelineResult = {
    videos: instant.videos,
    failed: instant.failed,
    failureCodes: instant.failureCodes,
    videosPerSecond: instant.videos / seconds,
    steadyVideosPerSecond: (instant.videos - 1) / Math.max(0.001, (instant.last - instant.first) / 1000),
    seconds,
    workerVideos: env.VIDROWS_WORKER_VIDEOS ?? "default",
    modelConcurrency: "default",
    workerPeakRssMb: instant.peakRssMb,
    workerCpuMsPerVideo: (instant.cpuSeconds * 1000) / instant.videos,
  };
  log(
    `${dialect}: instant pipeline${name.endsWith(dialect) ? "" : ` (${name})`} ${result.videosPerSecond.toFixed(0)} videos/s (steady ${result.steadyVideosPerSecond.toFixed(0)}), ${result.workerCpuMsPerVideo.toFixed(2)} ms worker CPU per video, ${instant.failed} failed, worker peak RSS ${instant.peakRssMb.toFixed(0)} MB`,
  );
  return result;
}

export async function runPipelineSection(
  dialect: BenchDialect,
  options: BenchOptions,
): Promise<PipelineSectionResult> {
  const instantResult = await measureInstant(dialect, options, {}, `vidrows-worker-instant-${dialect}`);
  // Each switch off between two runs of the default: on a shared machine neighbours in time see the
  // same load, so the switch is judged against the mean of the two around it.
  const switchedOff: SwitchedOffPipeline[] = [];
  let before = instantResult;
  for (const each of options.switches) {
    if (!each.pipeline || !each.dialects.includes(dialect)) continue;
    const off = await measureInstant(
      dialect,
      options,
      offSettings(each),
      `vidrows-worker-instant-${dialect}-${each.name}-off`,
    );
    const after = await measureInstant(dialect, options, {}, `vidrows-worker-instant-${dialect}-again`);
    switchedOff.push({
      switch: each.name,
      variable: each.variable,
      instant: off,
      defaultSteadyVideosPerSecond: [before.steadyVideosPerSecond, after.steadyVideosPerSecond],
      defaultWorkerCpuMsPerVideo: [before.workerCpuMsPerVideo, after.workerCpuMsPerVideo],
    });
    before = after;
  }

  const slow = await runPipeline(dialect, options, {
    videos: options.slowModelVideos,
    videosPerJob: 32,
    // An hour of talk, long enough for several chunks of 3,000 tokens: chunks of the size this section
    // has always measured, so that its chunks per second compare across runs (the default is bigger).
    captions: webVtt(3600, 240, 45),
    modelDelayMs: options.slowModelDelayMs,
    env: {
      LOG_LEVEL: "info",
      VIDROWS_MODEL_CONCURRENCY: String(options.modelConcurrency),
      VIDROWS_CHUNK_TOKENS: "3000",
    },
    name: `vidrows-worker-slow-${dialect}`,
  });
  const answered = slow.model.answeredAt;
  const slowSeconds = ((answered[answered.length - 1] ?? 0) - slow.model.firstRequestAt) / 1000;
  const slowResult: SlowModelResult = {
    videos: slow.videos,
    chunks: answered.length,
    failed: slow.failed,
    modelDelayMs: options.slowModelDelayMs,
    modelConcurrency: options.modelConcurrency,
    chunksPerSecond: answered.length / slowSeconds,
    maxInFlight: slow.model.maxInFlight,
    seconds: slowSeconds,
  };
  log(
    `${dialect}: 1-s model ${slowResult.chunksPerSecond.toFixed(1)} chunks/s (${slowResult.chunks} chunks, at most ${slowResult.maxInFlight} in flight)`,
  );
  return { dialect, instant: instantResult, slowModel: slowResult, switchedOff };
}
