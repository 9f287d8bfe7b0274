// The composition root: builds the store, services, HTTP server and worker once, and starts and
// stops them in order.
import type { FastifyInstance } from "fastify";
import { createCaptionSource } from "./captions/create-caption-source.js";
import { Semaphore } from "./concurrency/semaphore.js";
import type { Config } from "./config.js";
import { createExtractor, type ExtractorConfig } from "./extraction/openai-extractor.js";
import { buildHttpServer } from "./http/server.js";
import { Worker, type WorkerOptions } from "./pipeline/worker.js";
import { createServices, type Services } from "./services/index.js";
import { openStore, type Store } from "./store/database.js";
import { migrateToLatest } from "./store/migrate.js";
import { type DispatcherOptions, WebhookDispatcher } from "./webhooks/dispatcher.js";
import { WebhookSender } from "./webhooks/webhook-sender.js";

export interface AppOptions {
  /** Run a worker in this process (the default); `serve --no-worker` turns it off. */
  readonly withWorker?: boolean;
  /** Timings of the worker's polling and retries (tests shorten them). */
  readonly worker?: Partial<
    Pick<WorkerOptions, "pollIntervalMs" | "captionAttempts" | "retryBaseMs" | "maxClaims">
  >;
  /** Retry and chunking settings of the model client (tests shorten them). */
  readonly extraction?: Partial<Pick<ExtractorConfig, "retry" | "chunking" | "requestTimeoutMs">>;
  /** Timings of the webhook dispatcher (tests shorten them). */
  readonly dispatcher?: Partial<Pick<DispatcherOptions, "pollIntervalMs" | "concurrency">>;
  /** The youtube source's origin (tests point it at a local server). */
  readonly youtubeBaseUrl?: string;
  /** Wraps the store before anything uses it (tests watch the statements the server runs). */
  readonly wrapStore?: (store: Store) => Store;
}

export interface App {
  readonly config: Config;
  readonly store: Store;
  readonly services: Services;
  readonly http: FastifyInstance;
  /** The in-process worker, when this process runs one. */
  readonly worker: Worker | undefined;
  /** The in-process webhook dispatcher, in every process that runs background work. */
  readonly dispatcher: WebhookDispatcher | undefined;
  /** Listens on the configured host and port, starts the worker; answers the base URL. */
  start(): Promise<string>;
  /** Starts only the worker, for a process that serves no HTTP (`vidrows worker`). */
  startWorker(): void;
  /** Stops accepting requests, drains the worker, then closes the database. */
  stop(): Promise<void>;
}

const housekeepingIntervalMs = 60_000;

function buildWorker(
  config: Config,
  store: Store,
  http: FastifyInstance,
  options: AppOptions,
  onJobSettled: () => void,
): Worker | undefined {
  if (options.withWorker === false) return undefined;
  if (config.model === null) {
    http.log.warn(
      "no language model is configured (VIDROWS_LLM_API_KEY or VIDROWS_LLM_BASE_URL): no worker runs",
    );
    return undefined;
  }
  const captions = createCaptionSource(config.captions, {
    youtubeProxy: config.youtubeProxy,
    youtubeBaseUrl: options.youtubeBaseUrl,
  });
  const extractor = createExtractor({
    baseUrl: config.model.baseUrl,
    apiKey: config.model.apiKey,
    model: config.model.model,
    modelRequests: new Semaphore(config.worker.modelConcurrency),
    ...options.extraction,
  });
  return new Worker({
    store,
    plans: config.plans,
    captions,
    extractor,
    settings: config.worker,
    log: http.log.child({ component: "worker" }),
    onJobSettled,
    ...options.worker,
  });
}

/** Deliveries need no model, so every process that runs background work (not `--no-worker`) dispatches. */
function buildDispatcher(config: Config, store: Store, http: FastifyInstance, options: AppOptions) {
  if (options.withWorker === false) return undefined;
  return new WebhookDispatcher({
    store,
    sender: new WebhookSender({ allowPrivate: config.webhooks.allowPrivate }),
    retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
    log: http.log.child({ component: "webhooks" }),
    ...options.dispatcher,
  });
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const opened = openStore(config.database);
  const store = options.wrapStore?.(opened) ?? opened;
  try {
    await migrateToLatest(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const services = createServices(store, config.plans, config.model !== null);
  let worker: Worker | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  const http = await buildHttpServer({
    services,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    anonymousRequestsPerMinute: config.anonymousRequestsPerMinute,
    onJobSubmitted: () => worker?.wake(),
  });
  try {
    dispatcher = buildDispatcher(config, store, http, options);
    worker = buildWorker(config, store, http, options, () => dispatcher?.wake());
  } catch (error) {
    await http.close();
    await store.close();
    throw error;
  }

  let housekeeping: NodeJS.Timeout | undefined;

  return {
    config,
    store,
    services,
    http,
    worker,
    dispatcher,
    async start() {
      const address = await http.listen({ host: config.host, port: config.port });
      worker?.start();
      dispatcher?.start();
      housekeeping = setInterval(() => {
        services.rateLimiter.forgetOldWindows().catch((error: unknown) => {
          http.log.warn({ err: error }, "could not forget old rate-limit windows");
        });
      }, housekeepingIntervalMs);
      housekeeping.unref();
      return address;
    },
    startWorker() {
      if (!worker) throw new Error("This process was built without a worker.");
      worker.start();
      dispatcher?.start();
    },
    async stop() {
      if (housekeeping) clearInterval(housekeeping);
      await http.close();
      await worker?.stop();
      await dispatcher?.stop(config.worker.shutdownGraceSeconds * 1000);
      await store.close();
    },
  };
}
