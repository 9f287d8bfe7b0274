// Settling videos: their outcomes, their charges, their jobs' counts and status, the usage counters and
// the webhook events, all in one transaction, so a video is charged exactly once or not at all.
import { chargeSettledBatch, openBatchAccounts } from "../credits/settlement-charges.js";
import type { PlanTable } from "../domain/plans.js";
import type { Row } from "../extraction/extractor.js";
import type { Store } from "../store/database.js";
import { recordJobEvents, type SettledJobFacts } from "../webhooks/outbox.js";
import { heldOnSqlite, lockAndReadWorkspaces, lockHeldVideosAndJobs } from "./settlement-locks.js";
import { applyJobCounts } from "./settlement-job-counts.js";
import { priceAndWriteOutcomes, type WrittenOutcomes } from "./settlement-outcomes.js";

export type VideoOutcome =
  | {
      readonly kind: "done";
      readonly rows: Row[];
      readonly durationSeconds: number;
      readonly chunkCount: number;
    }
  | { readonly kind: "failed"; readonly code: string; readonly message: string; readonly retryable: boolean };

export interface SettledVideo {
  readonly videoId: string;
  readonly jobId: string;
  readonly workspaceId: string;
  /** The job's data key: the rows are stored sealed under it when present (store/sealed-values.ts). */
  readonly dataKey?: Buffer | null;
}

/** A video whose outcome is ready, as handed to `settleVideos`. */
export interface Settlement {
  readonly video: SettledVideo;
  readonly outcome: VideoOutcome;
}

/** What settling did: `lost` when the worker no longer held the video (another settles it). */
export type SettlementResult =
  { kind: "lost" } | { kind: "settled"; status: "done" | "failed"; jobSettled: boolean };

/**
 * PostgreSQL gave up the transaction to break a deadlock or a serialization conflict: nothing of it was
 * written, and trying it again is safe.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

/**
 * Settles several videos in one transaction, each exactly as it would settle alone (its lease checked,
 * then charged or refused against the workspace as the videos before it in the list left it), so that
 * the commit and the statements are paid once per batch: the outcomes of all its videos are one
 * statement, the counts of all its jobs another, and the statements per workspace run once each. A video whose lease
 * was lost is `lost` and writes nothing; the others settle. An error rolls the whole batch back, and
 * trying it again is then as safe as trying one video again.
 */
export async function settleVideos(
  store: Store,
  plans: PlanTable,
  workerId: string,
  settlements: readonly Settlement[],
  now = Date.now(),
): Promise<SettlementResult[]> {
  if (settlements.length === 0) return [];
  return store.db.transaction().execute(async (trx) => {
    const candidates = await lockHeldVideosAndJobs(store, trx, workerId, settlements);
    const workspaces = await lockAndReadWorkspaces(store, trx, candidates);
    const held = await heldOnSqlite(store, trx, workerId, candidates);
    const accounts = await openBatchAccounts(trx, plans, workspaces, now);
    const written = await priceAndWriteOutcomes(store, trx, workerId, held, accounts, now);
    const closedJobs = await applyJobCounts(store, trx, written.jobs, accounts, now);
    await chargeSettledBatch(store.db, trx, [...accounts.values()], now);
    await recordJobEvents(trx, closedJobs, now);
    return resultsOf(settlements, written, closedJobs);
  });
}

/** Each settlement's result, in the order given. */
function resultsOf(
  settlements: readonly Settlement[],
  written: WrittenOutcomes,
  closedJobs: readonly SettledJobFacts[],
): SettlementResult[] {
  const closed = new Set(closedJobs.map((job) => job.jobId));
  return settlements.map(({ video }): SettlementResult => {
    const settled = written.videos.get(video.videoId);
    if (!settled) return { kind: "lost" };
    return { kind: "settled", status: settled.status, jobSettled: closed.has(settled.jobId) };
  });
}
