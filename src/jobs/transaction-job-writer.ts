// A submission written in one transaction: the job, the reservation, the admission row, the idempotency record.
import type { Kysely, Transaction } from "kysely";
import type { Caller } from "../access/authentication.js";
import { reserveForJob } from "../credits/reservation.js";
import { newId } from "../domain/ids.js";
import type { Store } from "../store/database.js";
import { GroupedWrites } from "../store/grouped-writes.js";
import { newDataKey, seal } from "../store/sealed-values.js";
import type { Database } from "../store/tables.js";
import type { JobCreated } from "./job-schemas.js";
import { bindUploads } from "./job-uploads.js";
import {
  createdBody,
  type IdempotencyRecord,
  IdempotencyRace,
  idempotencyWindowMs,
  type JobWriter,
  type NewJob,
} from "./job-writer.js";
import {
  insertJob,
  recordAdmission,
  recordIdempotency,
  recordKeyedAdmission,
} from "./submission-statements.js";

/** The admission row of a job: its videos and queue places, for a worker to admit (pipeline/admissions.ts). */
export interface Admission {
  workspaceId: string;
  jobId: string;
  firstPriority: number;
  /** JSON array of the videos' platform ids, in the job's order. */
  platformVideoIds: string;
  createdAt: number;
}

/** How a database records the admission row with the videos as submitted (`references`, in order). */
export type AdmissionRecorder = (
  db: Kysely<Database>,
  trx: Transaction<Database>,
  admission: Admission,
  references: string[],
) => Promise<unknown>;

/** SQLite: the URLs as submitted; the eraser removes them from the file after the handover. */
export const recordPlainAdmission: AdmissionRecorder = (db, trx, admission, references) =>
  recordAdmission(db).run(trx, { ...admission, submittedUrls: JSON.stringify(references) });

/**
 * PostgreSQL keeps deleted values in its files: a job's URLs are sealed under a key of its own, which
 * the handover deletes (store/sealed-values.ts). Each URL alone, so that a worker moves them to the
 * job's videos as they are, without the key.
 */
export function sealedReferences(references: string[]): { dataKey: Buffer; submittedUrls: string } {
  const dataKey = newDataKey();
  return { dataKey, submittedUrls: JSON.stringify(references.map((url) => seal(dataKey, url))) };
}

/** PostgreSQL: the sealed URLs, with the job's data key written by the same statement. */
export const recordSealedAdmission: AdmissionRecorder = (db, trx, admission, references) =>
  recordKeyedAdmission(db).run(trx, { ...admission, ...sealedReferences(references) });

/**
 * The submission as one transaction, on either database; `recordAdmission` is the database's way of
 * keeping the submitted URLs. On SQLite, submissions that arrive together share one commit
 * (store/grouped-writes.ts); on PostgreSQL each is a transaction of its own.
 */
export class TransactionJobWriter implements JobWriter {
  private readonly writes: GroupedWrites;

  /** `groupCommits: false` (VIDROWS_GROUPED_COMMITS=0): on SQLite too, each submission commits on its own. */
  constructor(
    private readonly store: Store,
    private readonly recordAdmission: AdmissionRecorder,
    options: { readonly groupCommits?: boolean } = {},
  ) {
    this.writes = new GroupedWrites(store, options);
  }

  write(caller: Caller, job: NewJob, idempotency: IdempotencyRecord | undefined): Promise<JobCreated> {
    return this.writes.run((trx) => this.insert(trx, caller, job, idempotency));
  }

  private async insert(
    trx: Transaction<Database>,
    caller: Caller,
    job: NewJob,
    idempotency: IdempotencyRecord | undefined,
  ): Promise<JobCreated> {
    const db = this.store.db;
    const now = Date.now();
    const count = job.platformIds.length;
    const jobId = newId("job", now);
    // The job first, since it locks nothing: on PostgreSQL the workspace's row lock, which the
    // workspace's other submissions wait for, is then held only for the admission row and the commit.
    await insertJob(db).run(trx, {
      jobId,
      workspaceId: caller.workspaceId,
      schemaLabel: job.label,
      schemaDefinition: JSON.stringify(job.definition),
      language: job.language,
      transcribe: job.transcribe,
      reuseTranscripts: job.reuseTranscripts,
      videoCount: count,
      createdAt: now,
    });
    // Refuses the job (400) when another job took one of its uploads since the submission checked them.
    await bindUploads(trx, caller.workspaceId, jobId, job.uploads, now);
    // Refuses the job (402) when the workspace may not spend.
    const firstPriority = await reserveForJob(db, trx, caller, count, now);
    // The videos become rows of the queue when a worker next claims work (pipeline/admissions.ts).
    const admission: Admission = {
      workspaceId: caller.workspaceId,
      jobId,
      firstPriority,
      platformVideoIds: JSON.stringify(job.platformIds),
      createdAt: now,
    };
    await this.recordAdmission(db, trx, admission, job.references);

    const body = createdBody(jobId, job, now);
    if (idempotency) {
      const recorded = await recordIdempotency(db).run(trx, {
        workspaceId: caller.workspaceId,
        key: idempotency.key,
        requestHash: idempotency.requestHash,
        responseBody: JSON.stringify(body),
        createdAt: now,
        expiredBefore: now - idempotencyWindowMs,
      });
      if (Number(recorded.numAffectedRows ?? 0n) === 0) throw new IdempotencyRace();
    }
    return body;
  }
}
