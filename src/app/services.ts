// The services, built once over one store and one plan table, the hot reads wrapped in remembered-reads.ts.
import { JobPages } from "../jobs/job-list.js";
import { Handovers } from "../jobs/handover.js";
import { JobReads } from "../jobs/job-read.js";
import { JobVideos } from "../jobs/job-videos.js";
import { JobSubmission } from "../jobs/job-submission.js";
import type { JobWriter } from "../jobs/job-writer.js";
import { GroupedJobWriter } from "../jobs/grouped-submissions.js";
import {
  recordPlainAdmission,
  recordSealedAdmission,
  TransactionJobWriter,
} from "../jobs/transaction-job-writer.js";
import { JobCancellation } from "../pipeline/cancellation.js";
import { type VideoListingSettings, VideoListings } from "../listings/video-listings.js";
import type { PlatformAccess } from "../platforms/platform-access.js";
import type { PlanTable } from "../domain/plans.js";
import { allMechanismsOn, type MechanismSwitches } from "../mechanism-switches.js";
import type { OtherPlatforms } from "../domain/submitted-videos.js";
import type { FastifyBaseLogger } from "fastify";
import type { OpenedStore, Store } from "../store/database.js";
import { StorageEraser } from "../store/storage-eraser.js";
import { WebhookEndpoints } from "../webhooks/webhook-endpoints.js";
import type { WebhookUrlRules } from "../webhooks/webhook-url.js";
import { ApiKeyService } from "../keys/api-keys.js";
import type { AccessCheck } from "../access/authentication.js";
import { SqliteAccessCheck } from "../access/sqlite-access-check.js";
import { PostgresAccessCheck } from "../access/postgres-access-check.js";
import { RateLimiter } from "../access/rate-limiter.js";
import { SchemaService } from "../schemas/saved-schemas.js";
import { UsageService } from "../usage/usage-report.js";
import { WorkspaceService } from "../workspaces/workspaces.js";
import { parseDatabaseTarget, type UploadSettings } from "../config.js";
import { uploadSettings } from "../config/upload-settings.js";
import { createUploads } from "../uploads/create-uploads.js";
import type { Uploads } from "../uploads/uploads.js";
import {
  RememberedJobPages,
  RememberedJobReads,
  RememberedKeyLists,
  RememberedUsage,
} from "./remembered-reads.js";

export interface Services {
  /** Who is calling, and what the request may trust as of its arrival: one per database. */
  readonly accessCheck: AccessCheck;
  readonly rateLimiter: RateLimiter;
  readonly workspaces: WorkspaceService;
  readonly apiKeys: ApiKeyService;
  readonly keyLists: RememberedKeyLists;
  readonly schemas: SchemaService;
  readonly usage: RememberedUsage;
  /** The usage report itself, computed on every call (the PATCH answers with it). */
  readonly usageReport: UsageService;
  readonly jobSubmission: JobSubmission;
  readonly jobPages: RememberedJobPages;
  readonly jobReads: RememberedJobReads;
  /** A job's videos as they stand; not remembered: the dashboard's job page follows it, no hot path does. */
  readonly jobVideos: JobVideos;
  /** The handovers' claims; their completions are drained before the store closes. */
  readonly handovers: Handovers;
  readonly jobCancellation: JobCancellation;
  /** Playlists' and channels' videos through yt-dlp (`GET /v1/videos`). */
  readonly videoListings: VideoListings;
  readonly webhooks: WebhookEndpoints;
  /** Removes handed-over data from the database's files after handovers; closed before the store. */
  readonly storageEraser: StorageEraser;
  /** Files uploaded for jobs (`/v1/uploads`), and the sweep of those no job took in time. */
  readonly uploads: Uploads;
}

/** Settings of the services that tests may leave out. */
export interface ServiceOptions {
  /** How long a read's claim on a job's rows outlives its last renewal (jobs/handover.ts); 60 s if left out. */
  readonly handoverClaimMs?: number;
  /** Which webhook URLs are accepted (http:// for private receivers in development); https only if left out. */
  readonly webhookUrls?: WebhookUrlRules;
  /** Whether speech-to-text is configured (`transcribe: "always"` is refused without it); no if left out. */
  readonly transcriptionAvailable?: boolean;
  /** Which performance mechanisms are on (docs/performance.md); all if left out. */
  readonly mechanisms?: MechanismSwitches;
  /** Which pages besides YouTube's submissions may name (app.ts: only where yt-dlp is found); none if left out. */
  readonly otherPlatforms?: OtherPlatforms;
  /** How playlists and channels are listed (yt-dlp and its time limit); yt-dlp on PATH if left out. */
  readonly listing?: VideoListingSettings;
  /** The process's way to video sites (proxies, paces, cookies), shared with its worker; direct if left out. */
  readonly platformAccess?: PlatformAccess;
  /** The most answers each kind of remembered read keeps (VIDROWS_REMEMBERED_ANSWERS); 256 if left out. */
  readonly rememberedAnswers?: number;
  /** Where uploads go and their bounds; if left out, the defaults beside the default SQLite file (created at the first upload). */
  readonly uploads?: UploadSettings;
}

/**
 * How `POST /v1` writes a job on this database: on SQLite one transaction, sharing its commit with the
 * submissions of the same moment; on PostgreSQL the workspace's submissions that arrive together in one
 * statement, and the transaction, with the URLs sealed, for those with an Idempotency-Key. With
 * VIDROWS_GROUPED_COMMITS=0 or VIDROWS_GROUPED_SUBMISSIONS=0, each submission is a transaction of its own.
 */
function jobWriterFor(store: Store, mechanisms: MechanismSwitches): JobWriter {
  if (store.dialect === "sqlite") {
    return new TransactionJobWriter(store, recordPlainAdmission, { groupCommits: mechanisms.groupedCommits });
  }
  const inTransaction = new TransactionJobWriter(store, recordSealedAdmission);
  return mechanisms.groupedSubmissions ? new GroupedJobWriter(store, inTransaction) : inTransaction;
}

/** `extractionAvailable`: whether a language model is configured (else submissions answer 503). */
export function createServices(
  store: OpenedStore,
  plans: PlanTable,
  extractionAvailable = false,
  log?: FastifyBaseLogger,
  options: ServiceOptions = {},
): Services {
  const storageEraser = new StorageEraser(store, log?.child({ component: "storage-eraser" }));
  const handovers = new Handovers(store, storageEraser, options.handoverClaimMs);
  const workspaces = new WorkspaceService(store, plans);
  const schemas = new SchemaService(store);
  const apiKeys = new ApiKeyService(store);
  const usage = new UsageService(store, workspaces);
  const mechanisms = options.mechanisms ?? allMechanismsOn;
  const uploads = createUploads(
    store,
    options.uploads ?? uploadSettings({}, parseDatabaseTarget(undefined)),
    storageEraser,
  );
  return {
    // The one place the database decides how a request is admitted (see `AccessCheck`).
    accessCheck:
      store.dialect === "sqlite"
        ? new SqliteAccessCheck(store, plans)
        : new PostgresAccessCheck(store, plans, { shareChecks: mechanisms.sharedKeyChecks }),
    rateLimiter: new RateLimiter(store),
    workspaces,
    apiKeys,
    keyLists: new RememberedKeyLists(apiKeys, options.rememberedAnswers),
    schemas,
    usage: new RememberedUsage(usage, options.rememberedAnswers),
    usageReport: usage,
    jobSubmission: new JobSubmission(
      store,
      schemas,
      jobWriterFor(store, mechanisms),
      extractionAvailable,
      options.transcriptionAvailable,
      options.otherPlatforms,
    ),
    jobPages: new RememberedJobPages(new JobPages(store), options.rememberedAnswers),
    jobReads: new RememberedJobReads(new JobReads(store, handovers), options.rememberedAnswers),
    jobVideos: new JobVideos(store),
    handovers,
    jobCancellation: new JobCancellation(store, plans, uploads),
    videoListings: new VideoListings(options.listing, options.platformAccess),
    webhooks: new WebhookEndpoints(store, options.webhookUrls ?? { allowPrivate: false }),
    storageEraser,
    uploads,
  };
}
