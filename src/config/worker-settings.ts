// The pipeline worker: leases, videos and model requests in flight, chunk size, shutdown grace, and the bounds
// on what a page may make a video hold (its audio's bit rate, its transcript's characters a minute).
import { integerSetting } from "./setting-values.js";

export interface WorkerSettings {
  /** How long a silent worker keeps a video before another takes it over. */
  readonly videoLeaseSeconds: number;
  /** Videos one worker process holds at once. */
  readonly videosInFlight: number;
  /**
   * VIDROWS_WORKER_WORKSPACE_VIDEOS: the most of those one workspace holds in this worker at once (all of
   * them unless set). Less keeps places open for other workspaces even while one has work for all.
   */
  readonly videosPerWorkspace?: number;
  /** Model requests one worker process has in flight at once. */
  readonly modelConcurrency: number;
  /**
   * VIDROWS_CHUNK_TOKENS: the most estimated tokens of transcript in one model request; undefined keeps the
   * extractor's measured default (`defaultChunking` in `extraction/transcript-chunks.ts`).
   */
  readonly chunkTokens?: number | undefined;
  /** On SIGTERM, how long videos in hand may take to finish before they are handed back. */
  readonly shutdownGraceSeconds: number;
  /** VIDROWS_AUDIO_MAX_KBPS: the generous bit rate a video's audio download is bounded at, for its longest length. */
  readonly audioMaxKilobitsPerSecond?: number;
  /** VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE: the most characters a transcript holds a minute of its length. */
  readonly transcriptMaxCharsPerMinute?: number;
  /**
   * VIDROWS_TRANSCRIPT_RETENTION_HOURS: how long a workspace's transcripts are kept for reuse (24 when read
   * from the environment); 0 or left out keeps none.
   */
  readonly transcriptRetentionHours?: number;
}

export function workerSettings(env: NodeJS.ProcessEnv): WorkerSettings {
  const videosInFlight = integerSetting(env, "VIDROWS_WORKER_VIDEOS", 32, 1, 10_000);
  return Object.freeze({
    videoLeaseSeconds: integerSetting(env, "VIDROWS_VIDEO_LEASE_SECONDS", 120, 1, 86_400),
    videosInFlight,
    // At most the worker's own places: more would mean nothing, and a value above them is a mistake.
    videosPerWorkspace: integerSetting(
      env,
      "VIDROWS_WORKER_WORKSPACE_VIDEOS",
      videosInFlight,
      1,
      videosInFlight,
    ),
    modelConcurrency: integerSetting(env, "VIDROWS_MODEL_CONCURRENCY", 16, 1, 10_000),
    chunkTokens: env.VIDROWS_CHUNK_TOKENS?.trim()
      ? integerSetting(env, "VIDROWS_CHUNK_TOKENS", 0, 500, 1_000_000)
      : undefined,
    shutdownGraceSeconds: integerSetting(env, "VIDROWS_SHUTDOWN_GRACE_SECONDS", 10, 0, 3600),
    audioMaxKilobitsPerSecond: integerSetting(env, "VIDROWS_AUDIO_MAX_KBPS", 320, 8, 100_000),
    transcriptMaxCharsPerMinute: integerSetting(
      env,
      "VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE",
      5000,
      100,
      10_000_000,
    ),
    transcriptRetentionHours: integerSetting(env, "VIDROWS_TRANSCRIPT_RETENTION_HOURS", 24, 0, 8760),
  });
}
