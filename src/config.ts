// Settings, read once from the environment into a frozen object; a bad value stops start-up with its name.
import { existsSync } from "node:fs";
import {
  checkYouTubeCookiesSetting,
  parseCaptionsSetting,
  parseYouTubeClientsSetting,
  parseYouTubeProxySetting,
  type PlatformAccessSettings,
} from "./captions/create-caption-source.js";
import { isModelConfigured, openAiBaseUrl, parseExtractionSettings } from "./model-settings.js";
import { loadPlanTable, type PlanTable } from "./domain/plans.js";
import { type MechanismSwitches, readMechanismSwitches } from "./mechanism-switches.js";
import { type OtherPlatforms, otherPlatformSettings } from "./domain/submitted-videos.js";

export type DatabaseTarget = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

/** An OpenAI-compatible chat-completions endpoint. */
export interface ModelSettings {
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly model: string;
}

/** An OpenAI-compatible `/audio/transcriptions` endpoint, for videos without usable captions. */
export interface TranscriptionSettings {
  /** VIDROWS_TRANSCRIBE_BASE_URL: the API root; OpenAI's unless set. */
  readonly baseUrl: string;
  /** VIDROWS_TRANSCRIBE_API_KEY, else the language model's key. */
  readonly apiKey: string | undefined;
  /** VIDROWS_TRANSCRIBE_MODEL: `whisper-1` unless set. */
  readonly model: string;
  /** VIDROWS_TRANSCRIBE_MAX_BYTES: the endpoint's upload limit (OpenAI's 25 MB); larger audio is cut by ffmpeg. */
  readonly maxUploadBytes: number;
  /** VIDROWS_TRANSCRIBE_TIMEOUT_SECONDS: how long one upload may wait for its answer (300). */
  readonly requestTimeoutSeconds: number;
  /** VIDROWS_FFMPEG_PATH: the ffmpeg executable; unset, `ffmpeg` on PATH (looked up when a worker starts). */
  readonly ffmpegPath?: string;
}

export interface WorkerSettings {
  /** How long a silent worker keeps a video before another takes it over. */
  readonly videoLeaseSeconds: number;
  /** Videos one worker process holds at once. */
  readonly videosInFlight: number;
  /** Model requests one worker process has in flight at once. */
  readonly modelConcurrency: number;
  /**
   * VIDROWS_CHUNK_TOKENS: the most estimated tokens of transcript in one model request; undefined keeps the
   * extractor's measured default (`defaultChunking` in `extraction/transcript-chunks.ts`).
   */
  readonly chunkTokens?: number | undefined;
  /** On SIGTERM, how long videos in hand may take to finish before they are handed back. */
  readonly shutdownGraceSeconds: number;
}

/** How long a client may take, so that slow or stalled ones cannot hold the server's sockets. */
export interface HttpTimeouts {
  /** VIDROWS_HEADERS_TIMEOUT_SECONDS: from connecting to the end of the request's headers. */
  readonly headersMs: number;
  /** VIDROWS_REQUEST_TIMEOUT_SECONDS: from connecting to the end of the whole request, body included. */
  readonly requestMs: number;
  /** VIDROWS_KEEP_ALIVE_TIMEOUT_SECONDS: how long an idle kept-alive connection waits for its next request. */
  readonly keepAliveMs: number;
}

export interface Config {
  readonly database: DatabaseTarget;
  readonly host: string;
  readonly port: number;
  /**
   * VIDROWS_METRICS_PORT: where this process serves Prometheus metrics (`/metrics`, bound to `host`);
   * undefined serves none. 0 takes any free port (tests).
   */
  readonly metricsPort?: number | undefined;
  readonly plans: PlanTable;
  /** Requests per minute allowed to one client address that has no usable key. */
  readonly anonymousRequestsPerMinute: number;
  readonly logLevel: string;
  readonly trustProxy: boolean;
  readonly httpTimeouts: HttpTimeouts;
  /**
   * VIDROWS_REMEMBER_ANSWERS (default 1): answers are kept in memory until the next write, to the
   * database on SQLite, to the workspace on PostgreSQL (see docs/operations.md, "What the server keeps in memory");
   * 0 runs every request's queries.
   */
  readonly rememberAnswers: boolean;
  /** The performance mechanisms' switches (mechanism-switches.ts); all on if left out of a config built by hand. */
  readonly mechanisms?: MechanismSwitches;
  /**
   * VIDROWS_HANDOVER_CLAIM_SECONDS (60): how long a read's claim on a job's rows lasts unless renewed
   * while its answer is written; a process that died mid-answer leaves the rows to the next read after it.
   * May be left out of a config built by hand.
   */
  readonly handoverClaimSeconds?: number;
  /** `youtube`, `yt-dlp`, a chain such as `youtube,yt-dlp`, `dir:<path>` or a URL template with `{video_id}`. */
  readonly captions: string;
  readonly youtubeProxy: string | undefined;
  // The yt-dlp settings may be left out of a config built by hand (as tests do): their defaults apply.
  /** VIDROWS_YTDLP_PATH: the yt-dlp executable; unset, `yt-dlp` on PATH (looked up when a worker starts). */
  readonly ytDlpPath?: string;
  /** VIDROWS_YTDLP_TIMEOUT_SECONDS: how long one yt-dlp run may take before it is killed (60 s). */
  readonly ytDlpTimeoutSeconds?: number;
  /** How the platform sources reach the platform (clients, cookies, pacing); handed to the captions source. */
  readonly captionsAccess?: PlatformAccessSettings;
  /**
   * VIDROWS_OTHER_PLATFORMS (`any`): which pages besides YouTube's are read through yt-dlp, where it is
   * found: `any` https:// page, only the `known` platforms' (docs/platforms.md), or none (`off`). Left
   * out of a config built by hand: `off`.
   */
  readonly otherPlatforms?: OtherPlatforms;
  /** null when no model is configured: submissions then answer 503 `extraction_unavailable`. */
  readonly model: ModelSettings | null;
  /** null (or left out of a config built by hand) when speech-to-text is not configured. */
  readonly transcription?: TranscriptionSettings | null;
  readonly worker: WorkerSettings;
  readonly webhooks: WebhookSettings;
}

export interface WebhookSettings {
  /** VIDROWS_WEBHOOK_ALLOW_PRIVATE=1: deliveries may reach private and loopback addresses. */
  readonly allowPrivate: boolean;
  /** Seconds between delivery attempts; its length is the number of retries after the first attempt. */
  readonly retryScheduleSeconds: readonly number[];
  /**
   * VIDROWS_WEBHOOK_LEASE_SECONDS: how long a dispatcher holds a delivery it is attempting. A delivery
   * whose process died is sent again once this runs out; it must outlast one attempt (10 s).
   */
  readonly leaseSeconds: number;
}

/** A setting stops the process: the message names the variable, the hint says what to do about it. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly hint = "Fix the setting in the environment or in .env, then start again.",
  ) {
    super(message);
  }
}

/** The SQLite file used when DATABASE_URL is not set; the only path whose folder is created for it. */
export const defaultSqlitePath = "./data/vidrows.db";

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  // Plain decimal digits only: Number() alone would also take " 80", "0x50" and "1e3".
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

export function parseDatabaseTarget(raw: string | undefined): DatabaseTarget {
  const value = raw === undefined || raw === "" ? defaultSqlitePath : raw;
  if (/^postgres(ql)?:\/\//.test(value)) {
    if (!URL.canParse(value)) {
      // Never the URL itself: it may carry a password.
      throw new ConfigError(
        "DATABASE_URL is not a valid postgres:// URL (a port that is not a number, a space, a character that needs %-encoding?).",
        "Write it as postgres://user:password@host:5432/database, %-encoding special characters in the password, then start again.",
      );
    }
    return { kind: "postgres", url: value };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (scheme !== undefined) {
    // Names the scheme, never the whole URL: it may carry a password.
    throw new ConfigError(
      `DATABASE_URL must be a SQLite file path or a postgres:// URL; got a ${scheme}:// URL.`,
    );
  }
  return { kind: "sqlite", path: value };
}

/** The model settings, or null when none is configured (a key or a base URL makes one). */
function modelSettings(env: NodeJS.ProcessEnv): ModelSettings | null {
  let settings: ModelSettings;
  try {
    settings = parseExtractionSettings(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return isModelConfigured(settings) ? Object.freeze(settings) : null;
}

/**
 * Speech-to-text is configured when VIDROWS_TRANSCRIBE_BASE_URL, VIDROWS_TRANSCRIBE_MODEL or
 * VIDROWS_TRANSCRIBE_API_KEY is set; the others then take their defaults.
 */
function transcriptionSettings(
  env: NodeJS.ProcessEnv,
  model: ModelSettings | null,
): TranscriptionSettings | null {
  const read = (name: string) => env[name]?.trim() || undefined;
  const baseUrl = read("VIDROWS_TRANSCRIBE_BASE_URL");
  const modelName = read("VIDROWS_TRANSCRIBE_MODEL");
  const apiKey = read("VIDROWS_TRANSCRIBE_API_KEY");
  if (baseUrl === undefined && modelName === undefined && apiKey === undefined) return null;
  if (baseUrl !== undefined && !/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? "")) {
    throw new ConfigError(
      `VIDROWS_TRANSCRIBE_BASE_URL must be an http:// or https:// URL of an OpenAI-compatible API (such as http://127.0.0.1:8000/v1); got "${baseUrl}".`,
    );
  }
  return Object.freeze({
    baseUrl: baseUrl ?? openAiBaseUrl,
    apiKey: apiKey ?? model?.apiKey,
    model: modelName ?? "whisper-1",
    maxUploadBytes: integerSetting(env, "VIDROWS_TRANSCRIBE_MAX_BYTES", 25_000_000, 10_000, 2_000_000_000),
    requestTimeoutSeconds: integerSetting(env, "VIDROWS_TRANSCRIBE_TIMEOUT_SECONDS", 300, 1, 3600),
    ffmpegPath: read("VIDROWS_FFMPEG_PATH"),
  });
}

const defaultRetrySchedule = [5, 300, 1800, 7200, 18000, 36000, 36000];

function retrySchedule(raw: string | undefined): readonly number[] {
  if (raw === undefined || raw.trim() === "") return Object.freeze([...defaultRetrySchedule]);
  const parts = raw.split(",").map((p) => p.trim());
  if (!parts.every((p) => /^\d+(\.\d+)?$/.test(p)) || parts.length > 50) {
    throw new ConfigError(
      `VIDROWS_WEBHOOK_RETRY_SCHEDULE must be up to 50 comma-separated numbers of seconds, such as "5,300,1800"; got "${raw}".`,
    );
  }
  return Object.freeze(parts.map(Number));
}

const switchWords = new Map([
  ["1", true],
  ["true", true],
  ["yes", true],
  ["on", true],
  ["0", false],
  ["false", false],
  ["no", false],
  ["off", false],
]);

/**
 * An on/off setting: `1/true/yes/on` or `0/false/no/off`, in any case; unset or empty is the default.
 * Anything else is refused rather than guessed at (`2` or `enabled` taken as off would fail silently).
 */
export function switchSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = switchWords.get(raw.toLowerCase());
  if (value === undefined) {
    throw new ConfigError(`${name} must be on (1, true, yes, on) or off (0, false, no, off); got "${raw}".`);
  }
  return value;
}

/** VIDROWS_CAPTIONS, checked here so that a bad value stops every process, not only a worker. */
function captionsSetting(env: NodeJS.ProcessEnv): string {
  const raw = env.VIDROWS_CAPTIONS || "youtube";
  try {
    parseCaptionsSetting(raw);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return raw;
}

/** VIDROWS_OTHER_PLATFORMS: `any` unless set. */
function otherPlatformsSetting(env: NodeJS.ProcessEnv): OtherPlatforms {
  const raw = env.VIDROWS_OTHER_PLATFORMS?.trim() || "any";
  const setting = otherPlatformSettings.find((name) => name === raw.toLowerCase());
  if (setting === undefined) {
    throw new ConfigError(
      `VIDROWS_OTHER_PLATFORMS must be "any" (any https:// page yt-dlp reads), "known" (the platforms docs/platforms.md lists) or "off" (YouTube only); got "${raw}".`,
    );
  }
  return setting;
}

/** The settings of how the youtube and yt-dlp sources reach the platform, each checked by its own parser. */
function captionsAccess(env: NodeJS.ProcessEnv): PlatformAccessSettings {
  const clients = env.VIDROWS_YOUTUBE_CLIENTS?.trim() || undefined;
  const cookiesFile = env.VIDROWS_YOUTUBE_COOKIES?.trim() || undefined;
  try {
    if (clients !== undefined) parseYouTubeClientsSetting(clients);
    if (cookiesFile !== undefined) checkYouTubeCookiesSetting(cookiesFile);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return Object.freeze({
    youtubeClients: clients,
    youtubeCookiesFile: cookiesFile,
    youtubeMinIntervalMs: integerSetting(env, "VIDROWS_YOUTUBE_MIN_INTERVAL_MS", 0, 0, 600_000),
  });
}

/** VIDROWS_YOUTUBE_PROXY: one or more proxies, checked by the captions source's own parser. */
function youtubeProxy(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.VIDROWS_YOUTUBE_PROXY?.trim() || undefined;
  try {
    parseYouTubeProxySetting(raw);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return raw;
}

function httpTimeouts(env: NodeJS.ProcessEnv): HttpTimeouts {
  const headers = integerSetting(env, "VIDROWS_HEADERS_TIMEOUT_SECONDS", 10, 1, 3600);
  const request = integerSetting(env, "VIDROWS_REQUEST_TIMEOUT_SECONDS", 30, 1, 3600);
  // Node refuses a headers limit past the whole request's, which includes them.
  if (headers > request) {
    throw new ConfigError(
      `VIDROWS_HEADERS_TIMEOUT_SECONDS (${headers}) must not be more than VIDROWS_REQUEST_TIMEOUT_SECONDS (${request}).`,
    );
  }
  // 72 s by default, as Fastify's: longer than the idle timeout of common load balancers (60 s), so
  // that one never sends a request down a connection the server has just closed.
  const keepAlive = integerSetting(env, "VIDROWS_KEEP_ALIVE_TIMEOUT_SECONDS", 72, 1, 3600);
  return Object.freeze({
    headersMs: headers * 1000,
    requestMs: request * 1000,
    keepAliveMs: keepAlive * 1000,
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || "info";
  if (!logLevels.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(", ")}; got "${logLevel}".`);
  }
  let plans: PlanTable;
  try {
    plans = loadPlanTable(env.VIDROWS_PLANS || undefined);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const model = modelSettings(env);
  return Object.freeze({
    database: parseDatabaseTarget(env.DATABASE_URL),
    host: env.HOST || "127.0.0.1",
    port: integerSetting(env, "PORT", 8080, 0, 65535),
    metricsPort: env.VIDROWS_METRICS_PORT?.trim()
      ? integerSetting(env, "VIDROWS_METRICS_PORT", 0, 0, 65535)
      : undefined,
    plans,
    anonymousRequestsPerMinute: integerSetting(env, "VIDROWS_ANONYMOUS_RPM", 60, 1, 1_000_000_000),
    logLevel,
    trustProxy: switchSetting(env, "VIDROWS_TRUST_PROXY", false),
    httpTimeouts: httpTimeouts(env),
    rememberAnswers: switchSetting(env, "VIDROWS_REMEMBER_ANSWERS", true),
    mechanisms: readMechanismSwitches((name, fallback) => switchSetting(env, name, fallback)),
    handoverClaimSeconds: integerSetting(env, "VIDROWS_HANDOVER_CLAIM_SECONDS", 60, 3, 3600),
    captions: captionsSetting(env),
    youtubeProxy: youtubeProxy(env),
    ytDlpPath: env.VIDROWS_YTDLP_PATH?.trim() || undefined,
    ytDlpTimeoutSeconds: integerSetting(env, "VIDROWS_YTDLP_TIMEOUT_SECONDS", 60, 1, 3600),
    captionsAccess: captionsAccess(env),
    otherPlatforms: otherPlatformsSetting(env),
    model,
    transcription: transcriptionSettings(env, model),
    webhooks: Object.freeze({
      allowPrivate: switchSetting(env, "VIDROWS_WEBHOOK_ALLOW_PRIVATE", false),
      retryScheduleSeconds: retrySchedule(env.VIDROWS_WEBHOOK_RETRY_SCHEDULE),
      leaseSeconds: integerSetting(env, "VIDROWS_WEBHOOK_LEASE_SECONDS", 60, 15, 86_400),
    }),
    worker: Object.freeze({
      videoLeaseSeconds: integerSetting(env, "VIDROWS_VIDEO_LEASE_SECONDS", 120, 1, 86_400),
      videosInFlight: integerSetting(env, "VIDROWS_WORKER_VIDEOS", 32, 1, 10_000),
      modelConcurrency: integerSetting(env, "VIDROWS_MODEL_CONCURRENCY", 16, 1, 10_000),
      chunkTokens: env.VIDROWS_CHUNK_TOKENS?.trim()
        ? integerSetting(env, "VIDROWS_CHUNK_TOKENS", 0, 500, 1_000_000)
        : undefined,
      shutdownGraceSeconds: integerSetting(env, "VIDROWS_SHUTDOWN_GRACE_SECONDS", 10, 0, 3600),
    }),
  });
}

/** Reads `.env` from the working directory, if there is one; real environment variables win. */
export function loadDotEnv(path = ".env"): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
