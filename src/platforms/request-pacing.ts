// VIDROWS_YOUTUBE_MIN_INTERVAL_MS: a least interval between requests to one site from one process, whichever
// part sends them (captions, audio downloads, listings), so that its pace stays under the site's limits.
import { sleep } from "../concurrency/sleep.js";

export interface PacingClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

const realClock: PacingClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, signal),
};

/** Waits for `promise`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The pace of requests to one site: each request leaves at least the interval after the one before it
 * actually left, counted from the moment it was sent (not from when it was scheduled), so that no two leave
 * closer than the interval however late a timer fires. Requests that come together queue in order.
 */
export class RequestPacing {
  private lastLeftAt = Number.NEGATIVE_INFINITY;
  // The request before this one in the queue: settled once it has left (or given up).
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly minIntervalMs: number,
    private readonly clock: PacingClock = realClock,
  ) {}

  /**
   * Waits for this request's turn, then sends it with `leave` (called at once, synchronously) and marks the
   * moment it left. Throws the abort reason on abort, without sending.
   */
  async paced<T>(signal: AbortSignal | undefined, leave: () => T): Promise<T> {
    if (this.minIntervalMs <= 0) return leave();
    const previous = this.queue;
    let release = () => {};
    this.queue = new Promise((resolve) => {
      release = resolve;
    });
    try {
      await untilAborted(previous, signal);
      for (;;) {
        const wait = this.lastLeftAt + this.minIntervalMs - this.clock.now();
        if (wait <= 0) break;
        await this.clock.sleep(wait, signal);
      }
      const sent = leave();
      this.lastLeftAt = this.clock.now();
      return sent;
    } finally {
      // An aborted request leaves the queue; the one after it waits only for those before.
      if (signal?.aborted) previous.then(release, release);
      else release();
    }
  }
}

/**
 * One pace per site, made when the site is first asked: a site's limit is its own, so YouTube's turns do
 * not hold back a request to Vimeo.
 */
export class SitePaces {
  private readonly paces = new Map<string, RequestPacing>();

  constructor(
    readonly minIntervalMs: number,
    private readonly clock: PacingClock = realClock,
  ) {}

  of(site: string): RequestPacing {
    let pacing = this.paces.get(site);
    if (pacing === undefined) {
      pacing = new RequestPacing(this.minIntervalMs, this.clock);
      this.paces.set(site, pacing);
    }
    return pacing;
  }
}
