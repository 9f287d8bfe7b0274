// Settles the worker's finished videos in batches: whatever is ready while one transaction runs goes into the next.
import { type Backoff, backoffDelay, noJitter } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";
import type { PlanTable } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { isTransactionConflict, settleVideos } from "./settlement.js";
import type { SettledVideo, SettlementResult, VideoOutcome } from "./video-outcomes.js";

interface Waiting {
  readonly video: SettledVideo;
  readonly outcome: VideoOutcome;
  resolve(result: SettlementResult): void;
  reject(error: unknown): void;
}

const isPassing = (error: unknown) => isDatabaseUnavailable(error) || isTransactionConflict(error);

/** 400 ms after the first failure, doubling to at most 3.2 s, exactly. */
const settlementBackoff: Backoff = { firstMs: 400, maxMs: 3200, jitter: noJitter };

/**
 * One transaction at a time; videos finished meanwhile wait and go together into the next, up to
 * `maxBatch`. A lone video is settled at once, so batching adds no wait: it only shares the commit,
 * and the statements per job and per workspace, among videos that would have queued for the
 * database's lock anyway.
 */
export class SettlementQueue {
  private readonly waiting: Waiting[] = [];
  private flushing = false;

  constructor(
    private readonly store: Store,
    private readonly plans: PlanTable,
    private readonly workerId: string,
    /** How long to keep trying while the database is unreachable: the lease, which the heartbeat keeps. */
    private readonly outageRetryMs = 120_000,
    private readonly maxBatch = 64,
  ) {}

  settle(video: SettledVideo, outcome: VideoOutcome): Promise<SettlementResult> {
    return new Promise<SettlementResult>((resolve, reject) => {
      this.waiting.push({ video, outcome, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length > 0) {
        // A transaction on SQLite runs to its end without yielding to I/O, so videos become ready only
        // between transactions: each batch first lets the rest of this turn of the event loop gather them.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = this.waiting.splice(0, this.maxBatch);
        try {
          const results = await this.settleWithRetries(batch);
          batch.forEach((entry, i) => entry.resolve(results[i] as SettlementResult));
        } catch (error) {
          if (batch.length === 1 || isPassing(error)) {
            for (const entry of batch) entry.reject(error);
            continue;
          }
          // One video's trouble should not keep the others from settling: each on its own.
          await Promise.all(
            batch.map((entry) =>
              this.settleWithRetries([entry]).then(
                ([result]) => entry.resolve(result as SettlementResult),
                (failure: unknown) => entry.reject(failure),
              ),
            ),
          );
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Retries while the database is unreachable or broke a deadlock by giving up the transaction (which
   * then wrote nothing of the batch); the leases keep the videos ours meanwhile. A deadlock gets five
   * tries; an outage (PostgreSQL down, SQLite's disk full) gets as long as a lease, so that work done
   * before it is settled when it ends instead of being done again after the lease runs out.
   */
  private async settleWithRetries(batch: readonly Waiting[]): Promise<SettlementResult[]> {
    const startedAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await settleVideos(this.store, this.plans, this.workerId, batch);
      } catch (error) {
        const outageLeft = isDatabaseUnavailable(error) && Date.now() - startedAt < this.outageRetryMs;
        if (!isPassing(error) || (attempt >= 5 && !outageLeft)) throw error;
        await sleep(backoffDelay(attempt, settlementBackoff));
      }
    }
  }
}
