// What writes an accepted submission: one interface, its writer chosen per database at composition (app/services.ts).
import type { Caller } from "../access/authentication.js";
import type { SchemaDefinition } from "../domain/schema-definition.js";
import { formatTimestamp } from "../domain/timestamps.js";
import type { StoredTranscribeMode } from "../domain/transcribe-mode.js";
import type { JobCreated } from "./job-schemas.js";
import type { SubmittedUpload } from "./job-uploads.js";

/** A job as the submission writes it, checked and with its schema resolved. */
export interface NewJob {
  platformIds: string[];
  /** The videos as submitted, in order. */
  references: string[];
  label: string;
  definition: SchemaDefinition;
  language: string | null;
  transcribe: StoredTranscribeMode | null;
  /** 0 when the submission said `"reuse": false`; null reuses the workspace's kept transcripts. */
  reuseTranscripts: number | null;
  /** The uploads among the videos: bound to the job in its transaction (job-uploads.ts). */
  uploads: readonly SubmittedUpload[];
}

/** The Idempotency-Key a submission came with, and the hash of its request (job-submission.ts). */
export interface IdempotencyRecord {
  key: string;
  requestHash: string;
}

/** How long an Idempotency-Key answers for its first request. */
export const idempotencyWindowMs = 24 * 3600_000;

/** Thrown by a writer when another request recorded the same Idempotency-Key first; nothing was written. */
export class IdempotencyRace extends Error {}

export interface JobWriter {
  /**
   * Writes the job, its reservation of credits and queue places, its admission row and, with a key,
   * its idempotency record, all or nothing; answers the 202's body. Refuses with 402 when the workspace
   * may not spend, and throws IdempotencyRace when the key was recorded by another request meanwhile.
   */
  write(caller: Caller, job: NewJob, idempotency: IdempotencyRecord | undefined): Promise<JobCreated>;
}

/** The 202's body for a job just written. */
export function createdBody(jobId: string, job: NewJob, now: number): JobCreated {
  const count = job.platformIds.length;
  return {
    job_id: jobId,
    status: "processing",
    videos: count,
    schema: job.label,
    counts: { queued: count, processing: 0, done: 0, failed: 0 },
    created_at: formatTimestamp(now),
  };
}
