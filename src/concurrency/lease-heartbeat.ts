// Keeps the leases on everything a claim loop holds alive: one timer and one statement for all of them.

export interface LeaseHeartbeatOptions {
  /** Time between renewals: well inside the lease, so that a slow renewal still comes in time. */
  readonly intervalMs: number;
  /** What is in hand now, by key; each value stands for one claim (a later claim of the key has another). */
  holdings(): ReadonlyMap<string, object>;
  /** Extends the leases on `keys`; answers the keys still held (the others were taken over). */
  renew(keys: string[]): Promise<ReadonlySet<string>>;
  /** Called for a claim whose lease was found lost: its work should stop. */
  onLost(key: string, claim: object): void;
  onError(error: unknown): void;
}

/**
 * A timer per item in hand cost a worker settling hundreds of videos a second a share of its time in
 * timers alone; one timer renews every lease in one statement instead. A renewal that finds an item no
 * longer held means another process took it over (this one was too slow): that item's work stops.
 */
export class LeaseHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  constructor(private readonly options: LeaseHeartbeatOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A renewal still running (a slow database) is not doubled; the next tick tries again.
      if (!this.beating) this.beating = this.beat().finally(() => (this.beating = undefined));
    }, this.options.intervalMs);
  }

  /**
   * Stops renewing and waits for a renewal in flight, so that none extends a lease after the caller
   * hands the items back.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
  }

  private async beat(): Promise<void> {
    // Only claims made before the statement starts are judged by it: one made meanwhile may not be
    // visible to it yet (another connection's transaction, on PostgreSQL).
    const snapshot = new Map(this.options.holdings());
    if (snapshot.size === 0) return;
    let held: ReadonlySet<string>;
    try {
      held = await this.options.renew([...snapshot.keys()]);
    } catch (error) {
      this.options.onError(error);
      return;
    }
    for (const [key, claim] of snapshot) {
      if (!held.has(key)) this.options.onLost(key, claim);
    }
  }
}
