// A loop that claims work from the store while it has room, runs each item concurrently, and stops
// gracefully: the shape shared by the video worker and the webhook dispatcher.
import { type Backoff, backoffDelay, noJitter } from "./backoff.js";
import { sleep } from "./sleep.js";

export interface ClaimLoopOptions<T> {
  /** Items in hand at most. */
  readonly capacity: number;
  /** How long to wait for new work when the store had none. */
  readonly pollIntervalMs: number;
  /** Claims up to `room` items (with leases, so no other process takes them). */
  claim(room: number): Promise<T[]>;
  /** Key of an item, to track it while it runs. */
  keyOf(item: T): string;
  /** Works on one item; `signal` aborts when the loop gives up on it (at stop, or by `abandon`). */
  handle(item: T, signal: AbortSignal): Promise<void>;
  /** Called with the items abandoned at stop, to hand them back at once. */
  release(keys: string[]): Promise<void>;
  onError(error: unknown, context: string): void;
}

export class Stopped extends Error {}

/** After failed claims: twice the poll interval, doubling, up to 64 polls or 30 seconds, exactly. */
function claimBackoff(pollIntervalMs: number): Backoff {
  return { firstMs: 2 * pollIntervalMs, maxMs: Math.min(30_000, 64 * pollIntervalMs), jitter: noJitter };
}

const wokenUp = Symbol("woken up");

export class ClaimLoop<T> {
  private readonly active = new Map<string, AbortController>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;

  constructor(private readonly options: ClaimLoopOptions<T>) {}

  get inHand(): number {
    return this.active.size;
  }

  /** The items in hand, by key; each value stands for one claim of the item (a later claim has another). */
  get holdings(): ReadonlyMap<string, object> {
    return this.active;
  }

  /**
   * Gives up the work on one item (its lease was lost): its signal aborts with `reason`. Nothing happens
   * if the item is no longer in hand under the same claim.
   */
  abandon(key: string, claim: object, reason: unknown): void {
    const controller = this.active.get(key);
    if (controller === claim) controller.abort(reason);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** New work may be waiting: look now instead of at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops claiming, gives the items in hand `graceMs` to finish, then aborts and releases the rest. */
  async stop(graceMs: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    const deadline = Date.now() + graceMs;
    while (this.active.size > 0 && Date.now() < deadline) await sleep(20);
    const abandoned = [...this.active.keys()];
    for (const controller of this.active.values()) controller.abort(new Stopped("stopping"));
    while (this.active.size > 0) await sleep(5);
    if (abandoned.length > 0) {
      await this.options.release(abandoned).catch((error: unknown) => this.options.onError(error, "release"));
    }
  }

  /** Waits `ms`, or less when woken: an early end is what a wake-up asks for, not a failure. */
  private async idle(ms: number): Promise<void> {
    const woken = new AbortController();
    // A reason of our own: an abort without one would build a DOMException, with its stack, on every wake-up.
    this.wakeUp = () => woken.abort(wokenUp);
    await sleep(ms, woken.signal).catch(() => {});
    this.wakeUp = undefined;
  }

  private async run(): Promise<void> {
    const { capacity, pollIntervalMs } = this.options;
    let failures = 0;
    while (this.running) {
      const room = capacity - this.active.size;
      if (room <= 0) {
        await this.idle(pollIntervalMs);
        continue;
      }
      let claimed: T[];
      try {
        claimed = await this.options.claim(room);
        failures = 0;
      } catch (error) {
        // The database may be briefly unreachable: back off, then try again.
        failures++;
        this.options.onError(error, "claim");
        await this.idle(backoffDelay(failures, claimBackoff(pollIntervalMs)));
        continue;
      }
      for (const item of claimed) this.begin(item);
      if (claimed.length < room) await this.idle(pollIntervalMs);
    }
  }

  private begin(item: T): void {
    const key = this.options.keyOf(item);
    const controller = new AbortController();
    this.active.set(key, controller);
    this.options
      .handle(item, controller.signal)
      .catch((error: unknown) => {
        if (!(error instanceof Stopped)) this.options.onError(error, key);
      })
      .finally(() => {
        this.active.delete(key);
        // A free place: claim again now rather than at the next poll.
        this.wake();
      });
  }
}
