// VIDROWS_YOUTUBE_MIN_INTERVAL_MS: a least interval between requests to the platform from one worker process,
// whichever source sends them, so that a worker's pace stays under the platform's per-address limits.
import { sleep } from "../concurrency/sleep.js";

export interface PacingClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

const realClock: PacingClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, signal),
};

export class RequestPacing {
  // When the next request may leave; each caller takes the next free slot, so concurrent ones queue up.
  private nextAt = 0;

  constructor(
    readonly minIntervalMs: number,
    private readonly clock: PacingClock = realClock,
  ) {}

  /** Waits for this request's turn (at once when no interval is set); throws the abort reason on abort. */
  async turn(signal?: AbortSignal): Promise<void> {
    if (this.minIntervalMs <= 0) return;
    const now = this.clock.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + this.minIntervalMs;
    if (at > now) await this.clock.sleep(at - now, signal);
  }
}
