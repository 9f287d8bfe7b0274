// Settling videos: their outcomes, their charges, their jobs' counts and status, the usage counters and
// the webhook events, all in one transaction, so a video is charged exactly once or not at all.
import { openBatchAccounts, settledBatchCharges } from "../credits/settlement-charges.js";
import type { PlanTable } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import { runWrites } from "../store/combined-writes.js";
import { endpointsOf, jobEventWrites, type SettledJobFacts } from "../webhooks/outbox.js";
import { lockBatch } from "./settlement-locks.js";
import { closeSettledJobs, writeOutcomesAndCountJobs } from "./settlement-job-counts.js";
import { type PricedBatch, priceOutcomes } from "./settlement-outcomes.js";
import type { Settlement, SettlementResult } from "./video-outcomes.js";

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
 * the commit and the statements are paid once per batch, whatever its number of videos and jobs. On
 * PostgreSQL a batch is five round trips: begin, the locks (settlement-locks.ts), the outcomes with the
 * job counts (settlement-job-counts.ts), every other write (job closings, charges, events), commit; the
 * endpoints are read too when a job closed. A video whose lease
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
    const { held, workspaces } = await lockBatch(store, trx, workerId, settlements);
    const accounts = await openBatchAccounts(trx, plans, workspaces, now);
    const priced = priceOutcomes(held, accounts);
    const after = await writeOutcomesAndCountJobs(store, trx, workerId, priced, now);
    const { closed, writes: closings } = closeSettledJobs(store, after, priced.jobs, accounts, now);
    const endpoints = await endpointsOf(
      trx,
      closed.map((job) => job.workspaceId),
    );
    // The rest writes and answers nothing: on PostgreSQL one statement (store/combined-writes.ts).
    await runWrites(store, trx, [
      ...closings,
      ...settledBatchCharges(store.db, [...accounts.values()], now),
      ...jobEventWrites(store.db, closed, endpoints, now),
    ]);
    return resultsOf(settlements, priced, closed);
  });
}

/** Each settlement's result, in the order given. */
function resultsOf(
  settlements: readonly Settlement[],
  priced: PricedBatch,
  closedJobs: readonly SettledJobFacts[],
): SettlementResult[] {
  const closed = new Set(closedJobs.map((job) => job.jobId));
  return settlements.map(({ video }): SettlementResult => {
    const settled = priced.videos.get(video.rowId);
    if (!settled) return { kind: "lost" };
    return { kind: "settled", status: settled.status, jobSettled: closed.has(settled.jobId) };
  });
}
