// The services, built once over one store and one plan table.
import { JobPages } from "./jobs/job-list.js";
import { JobReads } from "./jobs/job-read.js";
import { JobSubmission } from "./jobs/job-submission.js";
import type { PlanTable } from "./domain/plans.js";
import type { Store, WriteStamp } from "./store/database.js";
import { WebhookEndpoints } from "./webhooks/webhook-endpoints.js";
import { ApiKeyService } from "./keys/api-keys.js";
import { Authenticator } from "./access/authentication.js";
import { RateLimiter } from "./access/rate-limiter.js";
import { SchemaService } from "./schemas/saved-schemas.js";
import { UsageService } from "./usage/usage-report.js";
import { WorkspaceService } from "./workspaces/workspaces.js";

export interface Services {
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly workspaces: WorkspaceService;
  readonly apiKeys: ApiKeyService;
  readonly schemas: SchemaService;
  readonly usage: UsageService;
  readonly jobSubmission: JobSubmission;
  readonly jobPages: JobPages;
  readonly jobReads: JobReads;
  readonly webhooks: WebhookEndpoints;
  /** The write stamp one request's lookups share (SQLite), read as the request arrives. */
  writeStampForRequest(): WriteStamp | undefined;
}

/** `extractionAvailable`: whether a language model is configured (else submissions answer 503). */
export function createServices(store: Store, plans: PlanTable, extractionAvailable = false): Services {
  const workspaces = new WorkspaceService(store, plans);
  const schemas = new SchemaService(store);
  return {
    authenticator: new Authenticator(store, plans),
    rateLimiter: new RateLimiter(store),
    workspaces,
    apiKeys: new ApiKeyService(store),
    schemas,
    usage: new UsageService(store, workspaces),
    jobSubmission: new JobSubmission(store, schemas, extractionAvailable),
    jobPages: new JobPages(store),
    jobReads: new JobReads(store),
    webhooks: new WebhookEndpoints(store),
    writeStampForRequest: () => store.writeStampFromNow?.(),
  };
}
