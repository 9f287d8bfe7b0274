// The settlement's per-database SQL behind one interface: the batch's locks, its outcomes and job counts,
// the closing of finished jobs (the workspaces' writes are in credits/settlement-charges.ts, the events'
// in webhooks/outbox.ts).
import type { Kysely, Transaction } from "kysely";
import type { PreparedQuery } from "./prepared-query.js";
import type { Database, WorkspaceRow } from "./tables.js";

// Each statement writes the whole batch: its values travel as one JSON array, read as a table
// (`json_populate_recordset` on PostgreSQL, `json_each` on SQLite), so that a batch of 13 videos is one
// round trip instead of 13, and one statement for the database to parse and plan.

/** One video's outcome as the batch's write takes it; the fields of the other kind are null. */
export interface OutcomeRecord {
  readonly id: string;
  readonly status: "done" | "failed";
  /** The video_id yt-dlp gave a page of another platform; null keeps the one the video has. */
  readonly platform_video_id: string | null;
  readonly rows: string | null;
  readonly row_count: number | null;
  readonly duration_seconds: number | null;
  readonly chunk_count: number | null;
  readonly transcript_source: string | null;
  readonly credits_charged: number;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly error_retryable: number | null;
}

/** What a batch adds to one job's counts, as the job counts' statement takes it. */
export interface JobChangeRecord {
  readonly id: string;
  readonly settled: number;
  readonly done: number;
  readonly failed: number;
  readonly charge: number;
}

export interface JobCountsAfter {
  id: string;
  queued_count: number;
  processing_count: number;
  done_count: number;
  failed_count: number;
  video_count: number;
  schema_label: string;
  credits_charged: number;
}

export interface OutcomeParams {
  /** JSON of `OutcomeRecord`s. */
  batch: string;
  /** Their ids (read on PostgreSQL only). */
  ids: string[];
  now: number;
  workerId: string;
}

export interface JobCountParams {
  /** JSON of `JobChangeRecord`s. */
  jobs: string;
  /** Their ids (read on PostgreSQL only). */
  jobIds: string[];
}

/** A batch to lock: its videos' and workspaces' ids, each sorted, and the worker settling it. */
export interface BatchToLock {
  ids: string[];
  workerId: string;
  workspaceIds: string[];
}

export interface SettlementSql {
  /**
   * Locks the batch's rows, in the one order every claim and settlement keeps; answers the ids of its
   * videos that `workerId` still holds and the workspaces' rows, by id. `db` is the store's.
   */
  lockBatch(
    db: Kysely<Database>,
    trx: Transaction<Database>,
    batch: BatchToLock,
  ): Promise<{ held: ReadonlySet<string>; workspaces: WorkspaceRow[] }>;
  /**
   * Writes each held video's outcome and charge and moves them from their jobs' `processing` counts to
   * `done` or `failed`; answers how many outcomes it wrote and the jobs' counts after.
   */
  writeOutcomesAndCountJobs(
    db: Kysely<Database>,
    trx: Transaction<Database>,
    params: OutcomeParams & JobCountParams,
  ): Promise<{ written: number; after: JobCountsAfter[] }>;
  /** Closes jobs whose last video settled (`batch`: JSON of `{ id, status }`), to send with the others. */
  readonly closeJobs: (
    db: Kysely<Database>,
  ) => PreparedQuery<{ batch: string; ids: string[]; now: number }, never>;
}
