// The queue's per-database SQL behind one interface: how a claim takes videos, and how it reads a job's data key.
import type { Kysely, RawBuilder, Transaction } from "kysely";
import type { Database } from "./tables.js";

/** A claimed video as its claim's UPDATE answers it. */
export interface TakenVideo {
  id: string;
  job_id: string;
  workspace_id: string;
  platform_video_id: string;
  claims: number;
}

/** One claim: for whom, how many videos at most, until when its lease runs, as of when. */
export interface ClaimTerms {
  workerId: string;
  limit: number;
  leaseUntil: number;
  now: number;
}

export interface VideoQueueSql {
  /**
   * Takes up to `limit` videos for `workerId`: first videos whose holder went silent (its lease ran
   * out before `now`), then queued ones in fair-queue order (lowest priority number first). No two
   * workers can take the same video. `db` is the store's, whose prepared statements run in `trx`.
   */
  take(
    db: Kysely<Database>,
    trx: Transaction<Database>,
    terms: ClaimTerms,
  ): Promise<{ lapsed: TakenVideo[]; queued: TakenVideo[] }>;
  /** The data keys of these jobs (store/sealed-values.ts): only a database that seals values keeps any. */
  dataKeysOf(trx: Transaction<Database>, jobIds: string[]): Promise<{ job_id: string; data_key: Buffer }[]>;
  /** For a statement's column list: the data key of the job `jobId` (a value), null where none is kept. */
  dataKeyOfJob(jobId: unknown): RawBuilder<Buffer | null>;
}
