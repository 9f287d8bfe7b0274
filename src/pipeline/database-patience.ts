// A video's work that meets a database outage waits for the database instead of failing the video: the
// outage is the service's, not the video's, and the customer's video must not fail (nor be charged) for it.
import { type Backoff, backoffDelay, halfJitter } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";
import { isDatabaseUnavailable } from "../store/errors.js";

/** 400 ms after the first failure, doubling to at most 3.2 s: an outage is seen to end within seconds. */
const outageBackoff: Backoff = { firstMs: 400, maxMs: 3200, jitter: halfJitter };

export interface Patience {
  /** How long to keep trying: the lease, which the heartbeat renews once the database answers again. */
  readonly patienceMs: number;
  readonly signal: AbortSignal;
  /** Told of each failure that is waited out (for the log). */
  readonly onOutage: (error: unknown) => void;
}

/**
 * `work`, done again while it fails with the database unavailable, until `patienceMs` has passed (then
 * the last failure is thrown: the video is left to its lease). Only the reads before the model's call can
 * fail so (kept transcripts, the plan's bounds, the submitted URL), so doing it again costs at most a
 * transcript read, never the model's work.
 */
export async function throughDatabaseOutages<T>(work: () => Promise<T>, patience: Patience): Promise<T> {
  const startedAt = Date.now();
  for (let failures = 1; ; failures++) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() - startedAt >= patience.patienceMs) throw error;
      patience.onOutage(error);
      await sleep(backoffDelay(failures, outageBackoff), patience.signal);
    }
  }
}
