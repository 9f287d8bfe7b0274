// Settings, read once from the environment into a frozen object; a bad value stops start-up with its name.
// Each group of settings is read by its own file in config/; this is the one reader that puts them together.
import { AllowedNetworks } from "./domain/network-addresses.js";
import { existsSync } from "node:fs";
import {
  captionsAccess,
  captionsSetting,
  otherPlatformsSetting,
  type PlatformAccessSettings,
  youtubeProxies,
} from "./config/captions-settings.js";
import {
  type DatabaseTarget,
  parseDatabaseTarget,
  type SqliteDriverName,
  sqliteDriverSetting,
} from "./config/database-settings.js";
import { type HttpTimeouts, httpTimeouts } from "./config/http-settings.js";
import { type MemorySettings, memorySettings } from "./config/memory-settings.js";
import {
  type ModelSettings,
  modelSettings,
  type TranscriptionSettings,
  transcriptionSettings,
} from "./config/language-model-settings.js";
import { type ListingSettings, listingSettings } from "./config/listing-settings.js";
import { ConfigError, integerSetting, switchSetting } from "./config/setting-values.js";
import { type WebhookSettings, webhookSettings } from "./config/webhook-settings.js";
import { type UploadSettings, uploadSettings } from "./config/upload-settings.js";
import { type WorkerSettings, workerSettings } from "./config/worker-settings.js";
import { loadPlanTable, type PlanTable } from "./domain/plans.js";
import type { OtherPlatforms } from "./domain/submitted-videos.js";
import { type MechanismSwitches, readMechanismSwitches } from "./mechanism-switches.js";

// What the rest of the code reads of the settings, from one place whichever file of config/ defines it.
export { ConfigError } from "./config/setting-values.js";
export {
  defaultSqlitePath,
  parseDatabaseTarget,
  type SqliteDriverName,
  sqliteDriverSetting,
} from "./config/database-settings.js";
export type {
  DatabaseTarget,
  HttpTimeouts,
  ListingSettings,
  ModelSettings,
  TranscriptionSettings,
  UploadSettings,
  WebhookSettings,
  WorkerSettings,
};

export interface Config {
  readonly database: DatabaseTarget;
  /**
   * VIDROWS_SQLITE_DRIVER: the SQLite driver asked for (to compare the two, or test each); undefined, as
   * by default, lets the running Node.js choose (store/sqlite/sqlite-driver.ts).
   */
  readonly sqliteDriver?: SqliteDriverName | undefined;
  readonly host: string;
  readonly port: number;
  /**
   * VIDROWS_METRICS_PORT: where this process serves Prometheus metrics (`/metrics`, bound to `metricsHost`);
   * undefined serves none. 0 takes any free port (tests).
   */
  readonly metricsPort?: number | undefined;
  /**
   * VIDROWS_METRICS_HOST (default 127.0.0.1): the address the metrics port listens on, whatever `host` is,
   * since the metrics answer anyone who reaches them.
   */
  readonly metricsHost?: string;
  /**
   * VIDROWS_EGRESS_ALLOW: the internal addresses and networks that fetches made because of a submitted URL
   * may reach (development); none unless set.
   */
  readonly egressAllowed?: AllowedNetworks;
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
  /**
   * What the process keeps in memory, sized (config/memory-settings.ts; docs/operations.md, "Memory
   * budget"). Left out of a config built by hand: the defaults.
   */
  readonly memory?: MemorySettings;
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
  /** VIDROWS_YOUTUBE_PROXY's proxies, parsed once; none (left out) means every request goes out directly. */
  readonly youtubeProxies?: readonly string[];
  // The yt-dlp settings may be left out of a config built by hand (as tests do): their defaults apply.
  /** VIDROWS_YTDLP_PATH: the yt-dlp executable; unset, `yt-dlp` on PATH (looked up when a worker starts). */
  readonly ytDlpPath?: string;
  /** VIDROWS_YTDLP_TIMEOUT_SECONDS: how long one yt-dlp run may take before it is killed (60 s). */
  readonly ytDlpTimeoutSeconds?: number;
  /** How video sites are reached beyond the proxies (clients, cookies, pacing). */
  readonly captionsAccess?: PlatformAccessSettings;
  /**
   * VIDROWS_OTHER_PLATFORMS (`any`): which pages besides YouTube's are read through yt-dlp, where it is
   * found: `any` https:// page, only the `known` platforms' (docs/platforms.md), or none (`off`). Left
   * out of a config built by hand: `off`.
   */
  readonly otherPlatforms?: OtherPlatforms;
  /** Listing slots and each workspace's queue for them; left out of a config built by hand: the defaults. */
  readonly listings?: ListingSettings;
  /** null when no model is configured: submissions then answer 503 `extraction_unavailable`. */
  readonly model: ModelSettings | null;
  /** null (or left out of a config built by hand) when speech-to-text is not configured. */
  readonly transcription?: TranscriptionSettings | null;
  readonly worker: WorkerSettings;
  readonly webhooks: WebhookSettings;
  /** Uploads' store and bounds; left out of a config built by hand: the defaults, the store beside the database. */
  readonly uploads?: UploadSettings;
}

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function egressAllowed(env: NodeJS.ProcessEnv): AllowedNetworks {
  try {
    return AllowedNetworks.parse(env.VIDROWS_EGRESS_ALLOW);
  } catch (error) {
    throw new ConfigError(`VIDROWS_EGRESS_ALLOW: ${(error as Error).message}.`);
  }
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
  const database = parseDatabaseTarget(env.DATABASE_URL);
  return Object.freeze({
    database,
    sqliteDriver: sqliteDriverSetting(env),
    host: env.HOST || "127.0.0.1",
    port: integerSetting(env, "PORT", 8080, 0, 65535),
    metricsPort: env.VIDROWS_METRICS_PORT?.trim()
      ? integerSetting(env, "VIDROWS_METRICS_PORT", 0, 0, 65535)
      : undefined,
    metricsHost: env.VIDROWS_METRICS_HOST?.trim() || "127.0.0.1",
    egressAllowed: egressAllowed(env),
    plans,
    anonymousRequestsPerMinute: integerSetting(env, "VIDROWS_ANONYMOUS_RPM", 60, 1, 1_000_000_000),
    logLevel,
    trustProxy: switchSetting(env, "VIDROWS_TRUST_PROXY", false),
    httpTimeouts: httpTimeouts(env),
    rememberAnswers: switchSetting(env, "VIDROWS_REMEMBER_ANSWERS", true),
    memory: memorySettings(env),
    mechanisms: readMechanismSwitches((name, fallback) => switchSetting(env, name, fallback)),
    handoverClaimSeconds: integerSetting(env, "VIDROWS_HANDOVER_CLAIM_SECONDS", 60, 3, 3600),
    captions: captionsSetting(env),
    youtubeProxies: youtubeProxies(env),
    ytDlpPath: env.VIDROWS_YTDLP_PATH?.trim() || undefined,
    ytDlpTimeoutSeconds: integerSetting(env, "VIDROWS_YTDLP_TIMEOUT_SECONDS", 60, 1, 3600),
    captionsAccess: captionsAccess(env),
    otherPlatforms: otherPlatformsSetting(env),
    listings: listingSettings(env),
    model,
    transcription: transcriptionSettings(env, model),
    webhooks: webhookSettings(env),
    worker: workerSettings(env),
    uploads: uploadSettings(env, database),
  });
}

/** Reads `.env` from the working directory, if there is one; real environment variables win. */
export function loadDotEnv(path = ".env"): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
