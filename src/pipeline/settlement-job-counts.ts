// Settlement's job step: the batch's videos moved into their jobs' counts, and a job closed after its last video.
import type { Transaction } from "kysely";
import { type BatchAccount, countJobSettled, countJobsFirstFailure } from "../credits/settlement-charges.js";
import { isSettled, jobStatus } from "../domain/job-status.js";
import type { Store } from "../store/database.js";
import type { Database, JobStatus } from "../store/tables.js";
import type { SettledJobFacts } from "../webhooks/outbox.js";
import type { JobChange } from "./settlement-outcomes.js";
import { sortedUnique } from "./settlement-locks.js";
import { closeJobs, countInJobs, type JobChangeRecord } from "./settlement-statements.js";

/**
 * Moves each job's videos of the batch from `processing` to `done` or `failed`, all jobs in one
 * statement, and closes the jobs whose last video settled in another, counting both in their
 * workspaces' accounts (in job id order, as the rows were locked). Answers the jobs closed, for their events.
 */
export async function applyJobCounts(
  store: Store,
  trx: Transaction<Database>,
  jobs: ReadonlyMap<string, JobChange>,
  accounts: ReadonlyMap<string, BatchAccount>,
  now: number,
): Promise<SettledJobFacts[]> {
  if (jobs.size === 0) return [];
  const changes: JobChangeRecord[] = sortedUnique(jobs.keys()).map((id) => {
    const change = jobs.get(id) as JobChange;
    const settled = change.done + change.failed;
    return { id, settled, done: change.done, failed: change.failed, charge: change.charge };
  });
  const after = await countInJobs(store.db).rows(trx, {
    batch: JSON.stringify(changes),
    ids: changes.map((change) => change.id),
  });
  const afterById = new Map(after.map((job) => [job.id, job]));
  const closed: SettledJobFacts[] = [];
  for (const { id: jobId } of changes) {
    const change = jobs.get(jobId) as JobChange;
    const account = accounts.get(change.workspaceId) as BatchAccount;
    const job = afterById.get(jobId);
    if (!job) throw new Error(`Job ${jobId} of a video being settled does not exist.`);
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
      jobId,
      workspaceId: change.workspaceId,
      status,
      videos: job.video_count,
      schema: job.schema_label,
      creditsCharged: job.credits_charged,
      counts,
      completedAt: now,
    });
  }
  if (closed.length > 0) {
    const statuses = closed.map((job) => ({ id: job.jobId, status: job.status }));
    await closeJobs(store.db).run(trx, {
      batch: JSON.stringify(statuses),
      ids: statuses.map((job) => job.id),
      now,
    });
  }
  return closed;
}
