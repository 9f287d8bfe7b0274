// The composition root of an API process: builds the store, services, HTTP server and (unless
// `--no-worker`) the background work once, and starts and stops them in order.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { type BackgroundWorkOptions, buildDispatcher, buildWorker } from "./background-work.js";
import type { Config } from "./config.js";
import { accessControl, accessRequestFields } from "./access/access-control.js";
import { buildHttpServer } from "./http/server.js";
import { jobRoutes } from "./jobs/job-routes.js";
import { keyRoutes } from "./keys/key-routes.js";
import { schemaRoutes } from "./schemas/schema-routes.js";
import { usageRoutes } from "./usage/usage-routes.js";
import { webhookRoutes } from "./webhooks/webhook-routes.js";
import { createLogger } from "./logger.js";
import type { Worker } from "./pipeline/worker.js";
import { createServices, type Services } from "./services.js";
import { openStore, type Store } from "./store/database.js";
import { migrateToLatest } from "./store/migrate.js";
import type { WebhookDispatcher } from "./webhooks/dispatcher.js";

export interface AppOptions extends BackgroundWorkOptions {
  /** Run a worker in this process (the default); `serve --no-worker` turns it off. */
  readonly withWorker?: boolean;
  /** Wraps the store before anything uses it (tests watch the statements the server runs). */
  readonly wrapStore?: (store: Store) => Store;
}

export interface App {
  readonly config: Config;
  readonly store: Store;
  readonly services: Services;
  readonly http: FastifyInstance;
  /** The process's structured logger (see logger.ts); requests log through children of it. */
  readonly log: FastifyBaseLogger;
  /** The in-process worker, when this process runs one. */
  readonly worker: Worker | undefined;
  /** The in-process webhook dispatcher, in every process that runs background work. */
  readonly dispatcher: WebhookDispatcher | undefined;
  /** Listens on the configured host and port, starts the worker; answers the base URL. */
  start(): Promise<string>;
  /** Starts only the worker and dispatcher, without listening (a `vidrows worker` process uses worker-app.ts). */
  startWorker(): void;
  /** Stops accepting requests, drains the worker, then closes the database. */
  stop(): Promise<void>;
}

const housekeepingIntervalMs = 60_000;

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const opened = openStore(config.database, { writeStamp: config.rememberAnswers });
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
  const log = createLogger(config.logLevel);
  const http = await buildHttpServer({
    log,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    timeouts: config.httpTimeouts,
    checkAccess: accessControl({
      ...services,
      anonymousRequestsPerMinute: config.anonymousRequestsPerMinute,
    }),
    requestFields: accessRequestFields,
    registerRoutes: async (app) => {
      await app.register(keyRoutes, { apiKeys: services.apiKeys });
      await app.register(schemaRoutes, { schemas: services.schemas });
      await app.register(usageRoutes, { usage: services.usage });
      await app.register(webhookRoutes, { webhooks: services.webhooks });
      await app.register(jobRoutes, {
        submission: services.jobSubmission,
        reads: services.jobReads,
        onSubmitted: () => worker?.wake(),
      });
    },
  });
  try {
    if (options.withWorker !== false) {
      dispatcher = buildDispatcher(config, store, log, options);
      worker = buildWorker(config, store, log, options, () => dispatcher?.wake());
    }
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
    log,
    worker,
    dispatcher,
    async start() {
      const address = await http.listen({
        host: config.host,
        port: config.port,
        // Fastify's logger is off (see server.ts): its line for each address it listens at is
        // written here, as Fastify words it.
        listenTextResolver: (listening) => {
          const text = `Server listening at ${listening}`;
          log.info(text);
          return text;
        },
      });
      worker?.start();
      dispatcher?.start();
      housekeeping = setInterval(() => {
        services.rateLimiter.forgetOldWindows().catch((error: unknown) => {
          log.warn({ err: error }, "could not forget old rate-limit windows");
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
