// What a settled batch of videos does to its workspaces' credits and counters: priced, then charged in one go.
import type { Kysely, Transaction } from "kysely";
import { type Write, write } from "../store/combined-writes.js";
import type { PlanTable } from "../domain/plans.js";
import { creditsForDuration } from "../domain/pricing.js";
import { utcDay } from "../domain/timestamps.js";
import { preparedPerStore } from "../store/prepared-query.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { isCycleDue, renewCycleIfDue } from "./cycles.js";
import { creditEntriesWrite } from "./ledger.js";
import { addDailyCredits, addFailures } from "./usage-counters.js";
import { type ChargeRefusal, refusalOf } from "./spending-check.js";

/**
 * One workspace's account while a batch settles: its balance and usage as the videos before in the
 * batch left them (each video is priced as if it settled alone), and what the batch adds to its counters.
 */
export interface BatchAccount {
  readonly workspaceId: string;
  readonly hardCap: number | null;
  /** The plan's price per started minute of a transcribed video. */
  readonly transcriptionCreditsPerMinute: number;
  balance: number;
  usedThisCycle: number;
  charged: number;
  videosProcessed: number;
  /** One line per charged video, with the balance it left. */
  readonly ledger: { amount: number; balanceAfter: number }[];
  readonly failures: Map<string, number>;
  jobsWithFailures: number;
  jobsSettled: number;
  jobsDone: number;
}

/**
 * The accounts of a batch's workspaces, read and locked by the caller, in its order; a workspace whose
 * new cycle is due starts it first (on a plan the table lacks, it keeps its figures).
 */
export async function openBatchAccounts(
  trx: Transaction<Database>,
  plans: PlanTable,
  workspaces: readonly WorkspaceRow[],
  now: number,
): Promise<Map<string, BatchAccount>> {
  const accounts = new Map<string, BatchAccount>();
  for (let workspace of workspaces) {
    const plan = plans.get(workspace.plan_id);
    if (plan && isCycleDue(workspace, now)) workspace = await renewCycleIfDue(trx, workspace.id, plan, now);
    accounts.set(workspace.id, {
      workspaceId: workspace.id,
      hardCap: workspace.hard_cap,
      // A plan the table lacks (removed from VIDROWS_PLANS) prices as the built-in plans do.
      transcriptionCreditsPerMinute: plan?.transcriptionCreditsPerMinute ?? 2,
      balance: workspace.balance,
      usedThisCycle: workspace.used_this_cycle,
      charged: 0,
      videosProcessed: 0,
      ledger: [],
      failures: new Map(),
      jobsWithFailures: 0,
      jobsSettled: 0,
      jobsDone: 0,
    });
  }
  return accounts;
}

/**
 * The charge for a finished video of `durationSeconds`, at the plan's transcription rate when it was
 * transcribed from its audio, or why the account cannot take it.
 */
export function priceVideo(
  account: BatchAccount,
  durationSeconds: number,
  transcribed = false,
): { charge: number } | { refusal: ChargeRefusal } {
  const price = creditsForDuration(durationSeconds, transcribed ? account.transcriptionCreditsPerMinute : 1);
  const refusal = refusalOf(price, account);
  return refusal === null ? { charge: price } : { refusal };
}

/** A video settled done with its charge, counted against the account. */
export function countVideoDone(account: BatchAccount, charge: number): void {
  account.balance -= charge;
  account.usedThisCycle += charge;
  account.charged += charge;
  account.videosProcessed++;
  account.ledger.push({ amount: -charge, balanceAfter: account.balance });
}

/** A video settled failed with `code`, for the account's `failures_by_code`. */
export function countVideoFailed(account: BatchAccount, code: string): void {
  account.failures.set(code, (account.failures.get(code) ?? 0) + 1);
}

/** A job of the account whose first failed video came in this batch (the jobs list's `failed` filter). */
export function countJobsFirstFailure(account: BatchAccount): void {
  account.jobsWithFailures++;
}

/** A job of the account whose last video settled in this batch: out of `processing`, into `done` or `failed`. */
export function countJobSettled(account: BatchAccount, failedVideos: number): void {
  account.jobsSettled++;
  if (failedVideos === 0) account.jobsDone++;
}

const addToWorkspaceCounters = preparedPerStore<
  {
    charged: number;
    videosProcessed: number;
    jobsWithFailures: number;
    jobsSettled: number;
    jobsDone: number;
    jobsFailed: number;
    workspaceId: string;
  },
  never
>((db, { charged, videosProcessed, jobsWithFailures, jobsSettled, jobsDone, jobsFailed, workspaceId }) =>
  db
    .updateTable("workspaces")
    .set((eb) => ({
      balance: eb("balance", "-", charged),
      used_this_cycle: eb("used_this_cycle", "+", charged),
      videos_processed: eb("videos_processed", "+", videosProcessed),
      jobs_with_failures: eb("jobs_with_failures", "+", jobsWithFailures),
      jobs_processing: eb("jobs_processing", "-", jobsSettled),
      jobs_done: eb("jobs_done", "+", jobsDone),
      jobs_failed: eb("jobs_failed", "+", jobsFailed),
    }))
    .where("id", "=", workspaceId),
);

/**
 * The writes of the batch's accounts, in the order given (by id, the order rows are locked in): the
 * charge and counters of each workspace in one statement, its failures by code; then the daily credits
 * and the ledger lines of all of them in one statement each. The settlement sends them with its own
 * writes (store/combined-writes.ts): on PostgreSQL all of them are one statement, since every statement
 * inside the transaction is a round trip made while it holds its locks. `db` is the store's, for its
 * prepared statements.
 */
export function settledBatchCharges(
  db: Kysely<Database>,
  accounts: readonly BatchAccount[],
  now: number,
): Write[] {
  const writes: Write[] = [];
  for (const account of accounts) {
    if (account.videosProcessed > 0 || account.jobsWithFailures > 0 || account.jobsSettled > 0) {
      writes.push(
        write(addToWorkspaceCounters(db), {
          charged: account.charged,
          videosProcessed: account.videosProcessed,
          jobsWithFailures: account.jobsWithFailures,
          jobsSettled: account.jobsSettled,
          jobsDone: account.jobsDone,
          jobsFailed: account.jobsSettled - account.jobsDone,
          workspaceId: account.workspaceId,
        }),
      );
    }
    for (const [code, count] of account.failures) {
      writes.push(write(addFailures(db), { workspaceId: account.workspaceId, code, count }));
    }
  }
  const charged = accounts.filter((account) => account.videosProcessed > 0);
  if (charged.length === 0) return writes;
  const spent = charged.map((account) => ({ workspace_id: account.workspaceId, credits: account.charged }));
  writes.push(write(addDailyCredits(db), { day: utcDay(now), spent: JSON.stringify(spent) }));
  writes.push(
    creditEntriesWrite(
      db,
      charged.flatMap((account) =>
        account.ledger.map((line) => ({
          workspaceId: account.workspaceId,
          kind: "charge" as const,
          amount: line.amount,
          balanceAfter: line.balanceAfter,
        })),
      ),
      now,
    ),
  );
  return writes;
}
