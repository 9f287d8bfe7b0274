// The one composition root: every process (`serve`, `serve --no-worker`, `worker`, the children of
// `cluster`, the administration commands) and every test builds its store, services, HTTP server and
// background work here, and starts and stops them in order. Its parts are in src/app/.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { BackgroundWorkOptions } from "./app/background-work.js";
import { poolSize } from "./app/connections.js";
import { otherPlatformsRead } from "./app/other-platforms.js";
import type { HttpApi } from "./app/http-api.js";
import { createServices, type Services } from "./app/services.js";
import { sweepWorkFoldersAtStart, warnWithoutDeathSignal } from "./app/start-sweep.js";
import { packageVersion } from "./cli/version.js";
import { type Config, ConfigError } from "./config.js";
import { uploadSettings } from "./config/upload-settings.js";
import { defaultHandoverClaimSeconds } from "./jobs/handover.js";
import { videoListingSettings } from "./listings/video-listings.js";
import { EgressGuard } from "./platforms/egress/egress-guard.js";
import { PlatformAccess } from "./platforms/platform-access.js";
import { createLogger } from "./logger.js";
import { countWaitingVideosWith, describeBuild, startMetricsServer } from "./metrics.js";
import type { Worker } from "./pipeline/worker.js";
import { allMechanismsOn } from "./mechanism-switches.js";
import { type OpenedStore, openStore } from "./store/database.js";
import { migrateToLatest } from "./store/migrate.js";
import { explainStoreFailure } from "./store/startup-failures.js";
import { defaultDeliveryConcurrency } from "./webhooks/delivery-concurrency.js";
import type { WebhookDispatcher } from "./webhooks/dispatcher.js";

export interface AppOptions extends BackgroundWorkOptions {
  /** Build the HTTP server, and listen at `start()`. */
  readonly serve: boolean;
  /** Build the pipeline worker and the webhook dispatcher, and run them from `start()`. */
  readonly work: boolean;
  /** Wraps the store before anything uses it (tests watch the statements the server runs). */
  readonly wrapStore?: (store: OpenedStore) => OpenedStore;
}

export interface App {
  readonly config: Config;
  readonly store: OpenedStore;
  readonly services: Services;
  /** The HTTP server, when this process serves. */
  readonly http: FastifyInstance | undefined;
  /** The process's structured logger (see logger.ts); requests log through children of it. */
  readonly log: FastifyBaseLogger;
  /** The pipeline worker, when this process works and a language model is configured. */
  readonly worker: Worker | undefined;
  /** The webhook dispatcher, in every process that works (deliveries need no model). */
  readonly dispatcher: WebhookDispatcher | undefined;
  /** The process's one way to video sites: its proxies' turn, each site's pace, the egress guard. */
  readonly platformAccess: PlatformAccess;
  /** Where this process serves its Prometheus metrics, once started with VIDROWS_METRICS_PORT set. */
  readonly metricsUrl: string | undefined;
  /** The migrations the store was brought up to date with as the app was built (`vidrows migrate` prints them). */
  readonly migrationsApplied: readonly string[];
  /** Listens (when serving) and starts the background work (when working); answers the base URL when serving. */
  start(): Promise<string | undefined>;
  /** In reverse order: stops accepting requests, drains the worker and the dispatcher, closes the database. */
  stop(): Promise<void>;
}

const housekeepingIntervalMs = 60_000;

export async function createApp(config: Config, options: AppOptions): Promise<App> {
  const { serve, work } = options;
  if (work && !serve && config.model === null) {
    throw new ConfigError(
      "vidrows worker needs a language model: set VIDROWS_LLM_API_KEY (or OPENAI_API_KEY) or VIDROWS_LLM_BASE_URL.",
    );
  }
  const log = createLogger(config.logLevel);
  // A database that cannot be opened or migrated is usually a setting to fix: say which and how.
  const explained = (error: unknown) => explainStoreFailure(config.database, error) ?? error;
  const mechanisms = config.mechanisms ?? allMechanismsOn;
  let opened: OpenedStore;
  try {
    opened = openStore(config.database, {
      rememberAnswers: config.rememberAnswers,
      sqliteDriver: config.sqliteDriver,
      backgroundCheckpoints: mechanisms.backgroundCheckpoints,
      logHeaderStamps: mechanisms.logHeaderStamps,
      namedStatements: mechanisms.namedStatements,
      combinedWrites: mechanisms.combinedWrites,
      sqliteMemory: config.memory,
      maxConnections: poolSize({
        serve,
        work,
        deliveriesInFlight: options.dispatcher?.concurrency ?? defaultDeliveryConcurrency,
      }),
      onSharedMemoryFence: (reason) => {
        if (reason) log.error({ reason }, "store fenced: its shared-memory file is unusable; answering 503");
        else log.info("store fence lifted: its shared-memory file is writable again");
      },
    });
  } catch (error) {
    throw explained(error);
  }
  const store = options.wrapStore?.(opened) ?? opened;
  let migrationsApplied: string[];
  try {
    migrationsApplied = await migrateToLatest(store);
  } catch (error) {
    await store.close().catch(() => {});
    throw explained(error);
  }
  const otherPlatforms = otherPlatformsRead(config).setting;
  if (otherPlatforms === "off" && (config.otherPlatforms ?? "off") !== "off") {
    // Said once at start-up: otherwise the first sign is a 400 for every Vimeo or TikTok URL.
    log.warn(
      `VIDROWS_OTHER_PLATFORMS is ${config.otherPlatforms}, but no yt-dlp was found (VIDROWS_YTDLP_PATH, else PATH): only YouTube videos are accepted`,
    );
  }
  // One way to video sites for the whole process: the listings and the worker share its proxies' turn and
  // each site's pace.
  const platformAccess = new PlatformAccess({
    proxies: config.youtubeProxies,
    cookiesFile: config.captionsAccess?.youtubeCookiesFile,
    minIntervalMs: config.captionsAccess?.youtubeMinIntervalMs,
    egress: new EgressGuard({ allowed: config.egressAllowed }),
  });
  const services = createServices(store, config.plans, config.model !== null, log, {
    handoverClaimMs: (config.handoverClaimSeconds ?? defaultHandoverClaimSeconds) * 1000,
    webhookUrls: { allowPrivate: config.webhooks.allowPrivate },
    transcriptionAvailable: (config.transcription ?? null) !== null,
    mechanisms,
    // Listings offer only the pages a job could then be given.
    listing: { ...videoListingSettings(config), otherPlatforms },
    platformAccess,
    otherPlatforms,
    uploads: config.uploads ?? uploadSettings({}, config.database),
    rememberedAnswers: config.memory?.rememberedAnswers,
  });

  let worker: Worker | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  let api: HttpApi | undefined;
  try {
    // Each part is imported only by the processes that run it: a worker-only process never loads the
    // HTTP server (~175 ms of start-up), and an administration command loads neither.
    const httpApi = serve ? await import("./app/http-api.js") : undefined;
    const background = work ? await import("./app/background-work.js") : undefined;
    api = await httpApi?.buildHttpApi(config, services, log, {
      jobSubmitted: () => worker?.wake(),
      jobCancelled: (jobId) => worker?.jobCancelled(jobId),
    });
    if (background) {
      dispatcher = background.buildDispatcher(config, store, log, options);
      worker = background.buildWorker(
        config,
        store,
        log,
        options,
        platformAccess,
        () => dispatcher?.wake(),
        services.storageEraser,
        services.uploads,
      );
    }
  } catch (error) {
    await api?.server.close();
    await store.close();
    throw error;
  }

  let housekeeping: NodeJS.Timeout | undefined;
  let metricsServer: { url: string; close(): Promise<void> } | undefined;

  return {
    config,
    store,
    services,
    http: api?.server,
    log,
    worker,
    dispatcher,
    platformAccess,
    migrationsApplied,
    get metricsUrl() {
      return metricsServer?.url;
    },
    async start() {
      if (config.metricsPort !== undefined && (serve || work)) {
        describeBuild(packageVersion());
        // Every video counted in its job's queued count, admitted to the queue or not yet.
        countWaitingVideosWith(async () => {
          const row = await store.db
            .selectFrom("jobs")
            .select((eb) => eb.fn.sum<number | string>("queued_count").as("waiting"))
            .where("status", "=", "processing")
            .executeTakeFirst();
          return Number(row?.waiting ?? 0);
        });
        metricsServer = await startMetricsServer(config.metricsHost ?? "127.0.0.1", config.metricsPort);
      }
      if (serve || work) warnWithoutDeathSignal(log);
      // A worker sweeps as it starts; a process serving without one runs listings, and sweeps here.
      if (worker === undefined && serve) void sweepWorkFoldersAtStart(log);
      const address = await api?.listen();
      worker?.start();
      dispatcher?.start();
      if (api) {
        housekeeping = setInterval(() => {
          services.rateLimiter.forgetOldWindows().catch((error: unknown) => {
            log.warn({ err: error }, "could not forget old rate-limit windows");
          });
          services.uploads.sweep().catch((error: unknown) => {
            log.warn({ err: error }, "could not sweep expired uploads");
          });
        }, housekeepingIntervalMs);
        housekeeping.unref();
      }
      return address;
    },
    async stop() {
      if (housekeeping) clearInterval(housekeeping);
      if (metricsServer) countWaitingVideosWith(undefined);
      await metricsServer?.close();
      await api?.server.close();
      await worker?.stop();
      await dispatcher?.stop(config.worker.shutdownGraceSeconds * 1000);
      // A handover whose answer went out just now is recorded (and then erased) before the store closes.
      await services.handovers.drain();
      await services.storageEraser.close();
      await store.close();
    },
  };
}
