// The composition root of a `vidrows worker` process: the store, the pipeline worker and the webhook
// dispatcher, without the HTTP server such a process never serves (building it cost ~175 ms of start-up).
import type { FastifyBaseLogger } from "fastify";
import { type BackgroundWorkOptions, buildDispatcher, buildWorker } from "./background-work.js";
import { type Config, ConfigError } from "./config.js";
import { createLogger } from "./logger.js";
import type { Worker } from "./pipeline/worker.js";
import { openStore, type Store } from "./store/database.js";
import { migrateToLatest } from "./store/migrate.js";
import type { WebhookDispatcher } from "./webhooks/dispatcher.js";

export interface WorkerApp {
  readonly config: Config;
  readonly store: Store;
  readonly log: FastifyBaseLogger;
  readonly worker: Worker;
  readonly dispatcher: WebhookDispatcher;
  /** Starts claiming videos and webhook deliveries. */
  start(): void;
  /** Drains the worker and the dispatcher, then closes the database. */
  stop(): Promise<void>;
}

export async function createWorkerApp(
  config: Config,
  options: BackgroundWorkOptions = {},
): Promise<WorkerApp> {
  if (config.model === null) {
    throw new ConfigError(
      "vidrows worker needs a language model: set VIDROWS_LLM_API_KEY (or OPENAI_API_KEY) or VIDROWS_LLM_BASE_URL.",
    );
  }
  const log = createLogger(config.logLevel);
  const store = openStore(config.database);
  let worker: Worker | undefined;
  let dispatcher: WebhookDispatcher;
  try {
    await migrateToLatest(store);
    dispatcher = buildDispatcher(config, store, log, options);
    worker = buildWorker(config, store, log, options, () => dispatcher.wake());
  } catch (error) {
    await store.close();
    throw error;
  }
  if (!worker) throw new Error("The worker was not built although a model is configured.");
  const built = worker;
  return {
    config,
    store,
    log,
    worker: built,
    dispatcher,
    start() {
      built.start();
      dispatcher.start();
    },
    async stop() {
      await built.stop();
      await dispatcher.stop(config.worker.shutdownGraceSeconds * 1000);
      await store.close();
    },
  };
}
