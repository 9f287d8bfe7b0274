// Settlement's job step: the batch's videos moved into their jobs' counts, and a job closed after its last video.
import type { Transaction } from "kysely";
import { type BatchAccount, countJobSettled, countJobsFirstFailure } from "../credits/settlement-charges.js";
import { isSettled, jobStatus } from "../domain/job-status.js";
import type { Store } from "../store/database.js";
import type { Database, JobStatus } from "../store/tables.js";
import type { SettledJobFacts } from "../webhooks/outbox.js";
import type { JobChange } from "./settlement-outcomes.js";
import { sortedUnique } from "./settlement-locks.js";
import { countInJobWithFailures, countInJobWithoutFailures } from "./settlement-statements.js";

/**
 * Moves each job's videos of the batch from `processing` to `done` or `failed`, in job id order (the
 * order the rows were locked in), and closes the jobs whose last video settled, counting both in their
 * workspaces' accounts. Answers the jobs closed, for their events.
 */
export async function applyJobCounts(
  store: Store,
  trx: Transaction<Database>,
  jobs: ReadonlyMap<string, JobChange>,
  accounts: ReadonlyMap<string, BatchAccount>,
  now: number,
): Promise<SettledJobFacts[]> {
  const closed: SettledJobFacts[] = [];
  for (const jobId of sortedUnique(jobs.keys())) {
    const change = jobs.get(jobId) as JobChange;
    const account = accounts.get(change.workspaceId) as BatchAccount;
    const statement = change.failed > 0 ? countInJobWithFailures : countInJobWithoutFailures;
    const job = await statement(store.db).first(trx, {
      settled: change.done + change.failed,
      done: change.done,
      failed: change.failed,
      charge: change.charge,
      jobId,
    });
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
    await trx.updateTable("jobs").set({ status, completed_at: now }).where("id", "=", jobId).execute();
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
  return closed;
}
