// The composition root: builds the store, services and HTTP server once, and starts and stops them in order.
import type { FastifyInstance } from "fastify";
import type { Config } from "./config.js";
import { buildHttpServer } from "./http/server.js";
import { createServices, type Services } from "./services/index.js";
import { openStore, type Store } from "./store/database.js";
import { migrateToLatest } from "./store/migrate.js";

export interface App {
  readonly config: Config;
  readonly store: Store;
  readonly services: Services;
  readonly http: FastifyInstance;
  /** Listens on the configured host and port; answers the base URL. */
  start(): Promise<string>;
  /** Stops accepting requests, lets the ones in flight finish, then closes the database. */
  stop(): Promise<void>;
}

const housekeepingIntervalMs = 60_000;

export async function createApp(config: Config): Promise<App> {
  const store = openStore(config.database);
  try {
    await migrateToLatest(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const services = createServices(store, config.plans);
  const http = await buildHttpServer({
    services,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    anonymousRequestsPerMinute: config.anonymousRequestsPerMinute,
  });

  let housekeeping: NodeJS.Timeout | undefined;

  return {
    config,
    store,
    services,
    http,
    async start() {
      const address = await http.listen({ host: config.host, port: config.port });
      housekeeping = setInterval(() => {
        services.rateLimiter.forgetOldWindows().catch((error: unknown) => {
          http.log.warn({ err: error }, "could not forget old rate-limit windows");
        });
      }, housekeepingIntervalMs);
      housekeeping.unref();
      return address;
    },
    async stop() {
      if (housekeeping) clearInterval(housekeeping);
      await http.close();
      await store.close();
    },
  };
}
