// The store's tables as Kysely sees them. Times are Unix milliseconds; money is whole credits.
import type { JobStatus } from "../domain/job-status.js";
import type { StoredTranscribeMode } from "../domain/transcribe-mode.js";
import type { Generated, Insertable, Selectable } from "kysely";
import type { UploadBlobsTable, UploadChunksTable, UploadsTable } from "./upload-tables.js";

export interface MetaTable {
  key: string;
  value: string;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  plan_id: string;
  created_at: number;
  cycle_started_at: number;
  balance: number;
  used_this_cycle: number;
  hard_cap: number | null;
  // Usage counters, kept by the transactions that change them so that reading usage never scans.
  jobs_queued: Generated<number>;
  jobs_processing: Generated<number>;
  jobs_done: Generated<number>;
  jobs_failed: Generated<number>;
  videos_processed: Generated<number>;
  /** Jobs that have at least one failed video, settled or not (the list's `failed` filter). */
  jobs_with_failures: Generated<number>;
  /** Where this workspace's next video joins the fair queue (see pipeline/claims.ts). */
  next_video_priority: Generated<number>;
}

export type CreditEntryKind = "initial" | "grant" | "cycle_reset" | "plan_change" | "charge";

export interface CreditLedgerTable {
  id: string;
  workspace_id: string;
  kind: CreditEntryKind;
  /** Signed change of the balance. */
  amount: number;
  balance_after: number;
  created_at: number;
}

export interface DailyCreditsTable {
  workspace_id: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  credits: number;
}

export interface FailureCountsTable {
  workspace_id: string;
  code: string;
  count: number;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  environment: "live" | "test";
  label: string;
  note: string;
  key_hash: string;
  last_four: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface SchemasTable {
  id: string;
  workspace_id: string;
  name: string;
  latest_version: number;
  created_at: number;
}

export interface SchemaVersionsTable {
  schema_id: string;
  version: number;
  /** The schema object as JSON text, exactly as published. */
  definition: string;
  description: string;
  created_at: number;
}

/**
 * A workspace's write version (migration 0011): PostgreSQL's triggers move it with every committed
 * change to what a remembered answer of the workspace says. No row reads as version 0. Empty on SQLite.
 */
export interface WorkspaceVersionsTable {
  workspace_id: string;
  version: number;
}

export interface RateLimitWindowsTable {
  /** `ws:<workspace id>` or `ip:<address>`. */
  subject: string;
  window_started_at: number;
  hits: number;
}

export type { JobStatus };
export type VideoStatus = "queued" | "processing" | "done" | "failed";

export interface JobsTable {
  id: string;
  workspace_id: string;
  /** `<name>-v<version>` for a saved schema, `inline` otherwise. */
  schema_label: string;
  /** The schema the job runs, as JSON text, fixed at submission. */
  schema_definition: string;
  language: string | null;
  status: JobStatus;
  video_count: number;
  queued_count: number;
  processing_count: number;
  done_count: number;
  failed_count: number;
  /** 1 once any video failed; indexed for the list's `failed` filter. */
  has_failures: number;
  credits_charged: number;
  created_at: number;
  completed_at: number | null;
  handed_over_at: number | null;
  /** The read whose answer is carrying the rows now (migration 0012; see jobs/handover.ts); null otherwise. */
  handover_claim: string | null;
  /** When that claim lapses unless its read renews it (Unix ms). */
  handover_claimed_until: number | null;
  /**
   * When a whole answer's reset put the rows back (migration 0014); null until then. Once set, the next
   * whole answer hands the rows over for good.
   */
  handover_returned_at: number | null;
  /** When the owner cancelled the job (migration 0009); null otherwise. */
  cancelled_at: number | null;
  /** `transcribe` of the submission (migration 0013): `never` or `always`; null is `auto`. */
  transcribe: StoredTranscribeMode | null;
  /** 0 when the submission said `"reuse": false` (migration 0015); null reuses kept transcripts. */
  reuse_transcripts: number | null;
}

export interface VideosTable {
  id: string;
  job_id: string;
  workspace_id: string;
  position: number;
  platform_video_id: string;
  /** The URL as submitted (sealed under the job's data key when it has one); deleted at the handover. */
  submitted_url: string | null;
  status: VideoStatus;
  priority: number;
  /** A queued video is not claimed before this moment (retry back-off). */
  available_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  claims: Generated<number>;
  /** The rows as JSON text (`[{...}, ...]`, sealed when the job has a data key) until the handover deletes them. */
  rows: string | null;
  row_count: number | null;
  duration_seconds: number | null;
  chunk_count: number | null;
  /** Where a done video's words came from (migration 0015): `captions`, `transcription` or `reused`. */
  transcript_source: string | null;
  credits_charged: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  error_retryable: number | null;
  settled_at: number | null;
}

/** A job accepted whose videos are not yet rows of `videos` (see migration 0006 and pipeline/admissions.ts). */
export interface JobAdmissionsTable {
  workspace_id: string;
  job_id: string;
  /** The first of the job's places in the fair queue; its videos take this and the ones after it. */
  first_priority: number;
  /** JSON array of the videos' platform ids, in the job's order. */
  platform_video_ids: string;
  /** JSON array of the videos as submitted, in the job's order, each sealed when the job has a data key. */
  submitted_urls: string;
  created_at: number;
}

/** A job's data key (migration 0008, store/sealed-values.ts); PostgreSQL only, deleted at the handover. */
export interface JobKeysTable {
  job_id: string;
  data_key: Buffer;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  key: string;
  request_hash: string;
  response_status: number;
  response_body: string;
  created_at: number;
}

export type WebhookEventType = "job.completed" | "job.failed" | "batch.completed";

export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  url: string;
  /** The subscribed event types as a JSON array. */
  events: string;
  /** `whsec_` + base64 of 32 random bytes; kept in full because every delivery is signed with it. */
  secret: string;
  disabled: number;
  created_at: number;
}

export interface WebhookEventsTable {
  id: string;
  workspace_id: string;
  type: WebhookEventType;
  /** The exact JSON body every delivery of the event sends. */
  body: string;
  created_at: number;
}

/** One event on its way to one endpoint: the outbox row the dispatcher works through. */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  workspace_id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: number;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: number;
}

export interface Database {
  meta: MetaTable;
  workspaces: WorkspacesTable;
  credit_ledger: CreditLedgerTable;
  daily_credits: DailyCreditsTable;
  failure_counts: FailureCountsTable;
  api_keys: ApiKeysTable;
  schemas: SchemasTable;
  schema_versions: SchemaVersionsTable;
  rate_limit_windows: RateLimitWindowsTable;
  jobs: JobsTable;
  videos: VideosTable;
  job_admissions: JobAdmissionsTable;
  job_keys: JobKeysTable;
  kept_transcripts: KeptTranscriptsTable;
  uploads: UploadsTable;
  upload_blobs: UploadBlobsTable;
  upload_chunks: UploadChunksTable;
  transcript_keys: TranscriptKeysTable;
  workspace_versions: WorkspaceVersionsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** A workspace's transcript of a video, kept for its later jobs (migration 0015). */
export interface KeptTranscriptsTable {
  id: string;
  workspace_id: string;
  /** Which video, language and `transcribe` choice it answers (pipeline/kept-transcripts.ts). */
  lookup: string;
  source: "captions" | "transcription";
  /** JSON of the transcript, sealed under its key in `transcript_keys` on PostgreSQL. */
  transcript: string;
  created_at: number;
  expires_at: number;
}

export interface TranscriptKeysTable {
  transcript_id: string;
  data_key: Buffer;
}

export type JobRow = Selectable<JobsTable>;
export type VideoRow = Selectable<VideosTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type NewWorkspace = Insertable<WorkspacesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
