// Answers computed from the database, kept in memory only while nothing has been written to what they read.
import type { MaybePromise } from "../concurrency/maybe-promise.js";

/**
 * What a request's remembered answers are checked against: a stamp that moves with every committed
 * write to the part of the database it covers, read as of the request's arrival. It is one of the two
 * things a request learns on the way in, made by its database's access check (access/); the other is
 * its rate-limit window's count (`WindowHits`, access/rate-limiter.ts).
 *
 * On SQLite the scope is the whole file ("") and the stamp moves with any commit (see
 * `SqliteReadStamp`, store/sqlite/open-sqlite.ts). On PostgreSQL the scope is the caller's workspace
 * and the stamp that workspace's write version (migration 0011), read by the request's one access
 * statement (access/postgres-access-check.ts): a workspace's answers then outlive writes to every
 * other workspace.
 */
export interface ReadStamp {
  /** The part of the database the stamp covers: "" for all of it, else a workspace id. */
  readonly scope: string;
  /** The stamp; read when a lookup needs it (SQLite's moves with this process's own writes meanwhile). */
  value(): string;
}

interface Remembered<V> {
  readonly value: V;
  /** Unix ms after which the value no longer holds even if nothing is written (it depends on the time). */
  readonly until: number;
}

/** A scope's remembered answers, all computed under one stamp. */
interface Scope<V> {
  readonly stamp: string;
  readonly values: Map<string, Remembered<V>>;
}

/**
 * A cache that can never serve a stale answer: every lookup first reads its scope's stamp (see
 * `ReadStamp`), and the moment it moves, by a write of this process or of any other, everything
 * remembered in that scope is dropped. Reads between writes, such as a client polling a settled job
 * or its usage, are then answered without a query. Where there is no stamp (remembering switched off,
 * VIDROWS_REMEMBER_ANSWERS=0), nothing is remembered and every lookup computes.
 */
export class StampedCache<V> {
  private readonly scopes = new Map<string, Scope<V>>();
  /** Values remembered across all scopes. */
  private size = 0;

  /** `capacity` bounds the memory: past it the cache starts over. */
  constructor(private readonly capacity: number) {}

  /**
   * The value remembered under `key`, or `compute()`'s, remembered if nothing was written meanwhile.
   * `compute` may say how long its value holds if nothing is written (`until`, Unix ms); a value that
   * comes with `remember: false` (one whose reading wrote, say) is not kept. `stamp` is the request's
   * (see `ReadStamp`); without one (remembering is off) every lookup computes. A remembered value is
   * returned as it is, not through a promise (see `MaybePromise`).
   */
  get(
    key: string,
    compute: () => Promise<{ value: V; until?: number; remember?: boolean }>,
    options: { now?: number; stamp?: ReadStamp } = {},
  ): MaybePromise<V> {
    const now = options.now ?? Date.now();
    if (options.stamp === undefined) return compute().then((computed) => computed.value);
    const scopeName = options.stamp.scope;
    const stamp = options.stamp.value();
    let scope = this.scopes.get(scopeName);
    if (scope?.stamp !== stamp) {
      if (scope) this.size -= scope.values.size;
      // Scopes emptied by writes count too: a workspace each, they would otherwise pile up.
      else if (this.scopes.size >= this.capacity) this.forgetAll();
      scope = { stamp, values: new Map() };
      this.scopes.set(scopeName, scope);
    }
    const known = scope.values.get(key);
    if (known && now < known.until) return known.value;
    return this.computeAndRemember(key, scopeName, stamp, compute);
  }

  private async computeAndRemember(
    key: string,
    scopeName: string,
    stamp: string,
    compute: () => Promise<{ value: V; until?: number; remember?: boolean }>,
  ): Promise<V> {
    const computed = await compute();
    // The stamp was read before the queries ran: a write since then has moved it, and the next
    // lookup drops this value before it could be served.
    const scope = this.scopes.get(scopeName);
    if (computed.remember !== false && scope?.stamp === stamp) {
      if (this.size >= this.capacity) {
        this.forgetAll();
        this.scopes.set(scopeName, scope);
        scope.values.clear();
      }
      if (!scope.values.has(key)) this.size++;
      scope.values.set(key, { value: computed.value, until: computed.until ?? Number.POSITIVE_INFINITY });
    }
    return computed.value;
  }

  private forgetAll(): void {
    this.scopes.clear();
    this.size = 0;
  }
}
