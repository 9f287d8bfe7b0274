// Answers computed from the database, kept in memory only while nothing at all has been written to it.
import type { MaybePromise } from "../concurrency/maybe-promise.js";
import type { Store, WriteStamp } from "./database.js";

interface Remembered<V> {
  readonly value: V;
  /** Unix ms after which the value no longer holds even if nothing is written (it depends on the time). */
  readonly until: number;
}

/**
 * A cache that can never serve a stale answer: every lookup first reads the store's write stamp
 * (see `Store.writeStamp`), and the moment it moves, by a write of this
 * process or of any other, everything remembered is dropped. Reads between writes, such as a client
 * polling a settled job or its usage, are then answered without a query. Where the store has no write
 * stamp (PostgreSQL), nothing is remembered and every lookup computes.
 */
export class StampedCache<V> {
  private readonly values = new Map<string, Remembered<V>>();
  private stamp: string | undefined;

  /** `capacity` bounds the memory: past it the cache starts over. */
  constructor(
    private readonly store: Store,
    private readonly capacity: number,
  ) {}

  /**
   * The value remembered under `key`, or `compute()`'s, remembered if nothing was written meanwhile.
   * `compute` may say how long its value holds if nothing is written (`until`, Unix ms); a value that
   * comes with `remember: false` (one whose reading wrote, say) is not kept. `stamp` is the request's
   * (see `Store.writeStampFromNow`); without one the store's own is read. A remembered value is
   * returned as it is, not through a promise (see `MaybePromise`).
   */
  get(
    key: string,
    compute: () => Promise<{ value: V; until?: number; remember?: boolean }>,
    options: { now?: number; stamp?: WriteStamp } = {},
  ): MaybePromise<V> {
    const now = options.now ?? Date.now();
    const stamp = (options.stamp ?? this.store.writeStamp)?.();
    if (stamp === undefined) return compute().then((computed) => computed.value);
    if (stamp !== this.stamp) {
      this.values.clear();
      this.stamp = stamp;
    }
    const known = this.values.get(key);
    if (known && now < known.until) return known.value;
    return this.computeAndRemember(key, stamp, compute);
  }

  private async computeAndRemember(
    key: string,
    stamp: string,
    compute: () => Promise<{ value: V; until?: number; remember?: boolean }>,
  ): Promise<V> {
    const computed = await compute();
    // The stamp read above was taken before the queries ran: a write since then leaves the stamp
    // changed, and the next lookup drops this value before it could be served.
    if (computed.remember !== false && this.stamp === stamp) {
      if (this.values.size >= this.capacity) this.values.clear();
      this.values.set(key, { value: computed.value, until: computed.until ?? Number.POSITIVE_INFINITY });
    }
    return computed.value;
  }
}
