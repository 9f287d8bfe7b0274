// Settlement's job step: the batch's outcomes written and moved into their jobs' counts, and a job closed after its last video.
import type { Transaction } from "kysely";
import { type BatchAccount, countJobSettled, countJobsFirstFailure } from "../credits/settlement-charges.js";
import { isSettled, jobStatus } from "../domain/job-status.js";
import { type Write, write } from "../store/combined-writes.js";
import type { Store } from "../store/database.js";
import type { Database, JobStatus } from "../store/tables.js";
import type { SettledJobFacts } from "../webhooks/outbox.js";
import type { JobChange, PricedBatch } from "./settlement-outcomes.js";
import { sortedUnique } from "./settlement-locks.js";
import { databaseSql } from "../store/database-sql.js";
import type { JobChangeRecord, JobCountsAfter } from "../store/settlement-sql.js";

/**
 * Writes every held video's outcome and charge, and moves them from their jobs' `processing` counts
 * to `done` or `failed`, the jobs in id order (the order their rows were locked in); answers the jobs'
 * counts after. One statement on PostgreSQL, two on SQLite.
 */
export async function writeOutcomesAndCountJobs(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  priced: PricedBatch,
  now: number,
): Promise<JobCountsAfter[]> {
  const { records } = priced;
  if (records.length === 0) return [];
  const changes: JobChangeRecord[] = sortedUnique(priced.jobs.keys()).map((id) => {
    const change = priced.jobs.get(id) as JobChange;
    const settled = change.done + change.failed;
    return { id, settled, done: change.done, failed: change.failed, charge: change.charge };
  });
  const outcomes = { batch: JSON.stringify(records), ids: records.map((r) => r.id), now, workerId };
  const jobs = { jobs: JSON.stringify(changes), jobIds: changes.map((change) => change.id) };
  const { written, after } = await databaseSql(store.dialect).settlement.writeOutcomesAndCountJobs(
    store.db,
    trx,
    { ...outcomes, ...jobs },
  );
  // The batch's locks kept every lease as checked: a difference is a broken promise, not a lost lease.
  if (written !== records.length) {
    throw new Error(`Settling wrote ${written} of ${records.length} videos whose leases were held.`);
  }
  if (after.length !== changes.length) {
    throw new Error(`A job of the videos being settled does not exist: ${jobs.jobIds.join(", ")}.`);
  }
  return after;
}

/**
 * The jobs whose last video settled in this batch, closed: their facts (for their events) and the
 * write that sets their status. Counts each job's first failures and each closed job in its
 * workspace's account, in job id order.
 */
export function closeSettledJobs(
  store: Store,
  after: readonly JobCountsAfter[],
  changes: ReadonlyMap<string, JobChange>,
  accounts: ReadonlyMap<string, BatchAccount>,
  now: number,
): { closed: SettledJobFacts[]; writes: Write[] } {
  const closed: SettledJobFacts[] = [];
  for (const job of [...after].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const change = changes.get(job.id) as JobChange;
    const account = accounts.get(change.workspaceId) as BatchAccount;
    const counts = {
      queued: job.queued_count,
      processing: job.processing_count,
      done: job.done_count,
      failed: job.failed_count,
    };
    // The job's first failures came in this batch.
    if (change.failed > 0 && counts.failed === change.failed) countJobsFirstFailure(account);
    if (!isSettled(counts)) continue;
    const status = jobStatus(counts) as Exclude<JobStatus, "processing">;
    countJobSettled(account, counts.failed);
    closed.push({
      jobId: job.id,
      workspaceId: change.workspaceId,
      status,
      videos: job.video_count,
      schema: job.schema_label,
      creditsCharged: job.credits_charged,
      counts,
      completedAt: now,
    });
  }
  if (closed.length === 0) return { closed, writes: [] };
  const statuses = closed.map((job) => ({ id: job.jobId, status: job.status }));
  const closing = { batch: JSON.stringify(statuses), ids: statuses.map((job) => job.id), now };
  const closeJobs = databaseSql(store.dialect).settlement.closeJobs;
  return { closed, writes: [write(closeJobs(store.db), closing)] };
}
