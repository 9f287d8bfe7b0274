// The HTTP side of the composition root: the server, its access check and every feature's routes.
// Loaded only by processes that serve, so that a worker-only process never loads Fastify.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { accessControl, accessRequestFields } from "../access/access-control.js";
import type { Config } from "../config.js";
import { buildHttpServer } from "../http/server.js";
import { dashboardFiles } from "./dashboard-files.js";
import { jobRoutes } from "../jobs/job-routes.js";
import { keyRoutes } from "../keys/key-routes.js";
import { listingRoutes } from "../listings/listing-routes.js";
import { schemaRoutes } from "../schemas/schema-routes.js";
import { uploadRoutes } from "../uploads/upload-routes.js";
import { usageRoutes } from "../usage/usage-routes.js";
import { webhookRoutes } from "../webhooks/webhook-routes.js";
import type { Services } from "./services.js";

/** The API's server, built and not yet listening. */
export interface HttpApi {
  readonly server: FastifyInstance;
  /** Listens on the configured host and port; answers the base URL. */
  listen(): Promise<string>;
}

/** What the API tells a worker running in the same process, so that it acts at once rather than at its next look. */
export interface LocalWorkerSignals {
  /** A job was accepted: look for work now. */
  jobSubmitted(): void;
  /** A job was cancelled: abandon its videos in hand now. */
  jobCancelled(jobId: string): void;
}

/** The API's server over `services`, telling `localWorker` of submissions and cancellations. */
export async function buildHttpApi(
  config: Config,
  services: Services,
  log: FastifyBaseLogger,
  localWorker: LocalWorkerSignals,
): Promise<HttpApi> {
  const server = await buildHttpServer({
    log,
    logLevel: config.logLevel,
    countRequests: config.metricsPort !== undefined,
    trustProxy: config.trustProxy,
    timeouts: config.httpTimeouts,
    checkAccess: accessControl({
      ...services,
      anonymousRequestsPerMinute: config.anonymousRequestsPerMinute,
    }),
    requestFields: accessRequestFields,
    registerRoutes: async (app) => {
      await app.register(keyRoutes, { apiKeys: services.apiKeys, keyLists: services.keyLists });
      await app.register(schemaRoutes, { schemas: services.schemas });
      await app.register(usageRoutes, { usage: services.usage, usageReport: services.usageReport });
      await app.register(webhookRoutes, { webhooks: services.webhooks });
      await app.register(jobRoutes, {
        submission: services.jobSubmission,
        pages: services.jobPages,
        reads: services.jobReads,
        videos: services.jobVideos,
        handovers: services.handovers,
        cancellation: services.jobCancellation,
        onSubmitted: () => localWorker.jobSubmitted(),
        onCancelled: (jobId) => localWorker.jobCancelled(jobId),
      });
      await app.register(listingRoutes, { listings: services.videoListings });
      await app.register(uploadRoutes, { uploads: services.uploads });
      await app.register(dashboardFiles, {});
    },
  });
  return {
    server,
    listen: () =>
      server.listen({
        host: config.host,
        port: config.port,
        // Fastify's logger is off (see server.ts): its line for each address it listens at is
        // written here, as Fastify words it.
        listenTextResolver: (listening) => {
          const text = `Server listening at ${listening}`;
          log.info(text);
          log.info(`Dashboard at ${listening}/dashboard`);
          return text;
        },
      }),
  };
}
