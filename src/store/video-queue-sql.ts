// The queue's per-database SQL behind one interface: how a claim takes videos, and how it reads a job's data key.
import type { Kysely, RawBuilder, Selectable, Transaction } from "kysely";
import type { Database, JobAdmissionsTable } from "./tables.js";

export type Admission = Selectable<JobAdmissionsTable>;

/**
 * What one claim admits at most: 50 jobs, and no job once 1,000 videos are in (the first job is
 * admitted whatever its size). A backlog (after the workers were down) is admitted over the next
 * claims, each a short transaction, so that a claim never writes tens of thousands of rows at once.
 */
export const admissionsPerClaim = { jobs: 50, videos: 1000 } as const;

/** A claimed video as its claim's UPDATE answers it. */
export interface TakenVideo {
  id: string;
  job_id: string;
  workspace_id: string;
  platform_video_id: string;
  claims: number;
}

/**
 * How far past a claim's own videos it looks down the queue for other workspaces' (the fair share's
 * window): the queue's order already interleaves the workspaces with work waiting (credits/reservation.ts
 * places a newcomer at the queue's head), so each of them has its first videos within the first few
 * places, and 32 more places than the claim takes sees up to 32 of them at once. A workspace further
 * down still comes in the queue's order.
 */
export const fairShareWindow = 32;

/**
 * One claim: for whom, how many videos at most, until when its lease runs, as of when, and the most
 * videos of one workspace this worker may hold once the claim is taken (`workspaceCap`).
 */
export interface ClaimTerms {
  workerId: string;
  limit: number;
  leaseUntil: number;
  now: number;
  workspaceCap: number;
}

export interface VideoQueueSql {
  /**
   * Takes up to `limit` videos for `workerId`: first videos whose holder went silent (its lease ran
   * out before `now`), then queued ones shared fairly between workspaces. Of the first queued videos
   * (the claim's room and `fairShareWindow` more, in fair-queue order: lowest priority number first),
   * each place goes to the workspace that would then hold the fewest videos, counted over every
   * worker (the least served), ties to the earlier place in the queue; a workspace whose videos in
   * this worker would pass `workspaceCap` takes none. A workspace alone takes them all. No two workers
   * can take the same video. `db` is the store's, whose prepared statements run in `trx`.
   */
  take(
    db: Kysely<Database>,
    trx: Transaction<Database>,
    terms: ClaimTerms,
  ): Promise<{ lapsed: TakenVideo[]; queued: TakenVideo[] }>;
  /**
   * Takes the waiting jobs' admission rows a claim admits (`admissionsPerClaim`, oldest first) by
   * deleting them, so that each is admitted once, even with other workers claiming at the same time.
   */
  takeAdmissions(db: Kysely<Database>, trx: Transaction<Database>): Promise<Admission[]>;
  /** The data keys of these jobs (store/sealed-values.ts): only a database that seals values keeps any. */
  dataKeysOf(trx: Transaction<Database>, jobIds: string[]): Promise<{ job_id: string; data_key: Buffer }[]>;
  /** For a statement's column list: the data key of the job `jobId` (a value), null where none is kept. */
  dataKeyOfJob(jobId: unknown): RawBuilder<Buffer | null>;
}
