// A per-minute request budget per subject, counted in the shared store so it holds across processes.
import type { Store } from "../store/database.js";

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the current window ends and the budget is whole again. */
  readonly resetSeconds: number;
}

const windowMs = 60_000;

/** Hits this process has taken from the store for a subject's current window but not used yet. */
interface Reservation {
  windowStartedAt: number;
  unused: number;
  /** The window's hits no process had reserved yet, as of this process's last reservation. */
  unreserved: number;
}

/**
 * How many hits one write reserves: 1% of the limit. Small limits (up to 199 a minute) are counted
 * hit by hit, exactly; large ones cost one write per 1% of the budget instead of one per request.
 */
export function reservationSize(limit: number): number {
  return Math.max(1, Math.floor(limit / 100));
}

export class RateLimiter {
  private readonly reservations = new Map<string, Reservation>();

  constructor(private readonly store: Store) {}

  /**
   * Counts one request of `subject` in the current minute and says whether it is within `limit`.
   *
   * Fixed one-minute windows, counted in the database with an atomic upsert, so every process sharing
   * it sees one count. A process takes hits in blocks (see `reservationSize`) and spends them locally;
   * all processes together never let more than `limit` requests through in a window. Hits a process
   * reserved but did not use are lost to the others, so a busy multi-process deployment may refuse a
   * little (under 1% per process) before the limit.
   *
   * A hit spent from a held block is answered at once, not through a promise: that is most requests,
   * and a promise and its turn of the microtask queue would cost more than the answer.
   *
   * `remaining` is the workspace's budget, not this process's block: its unused hits plus those nobody
   * had reserved at its last reservation. On one process that is exact. With several, it is as of that
   * reservation, at most a block of this process's own requests ago: what the others reserved since is
   * not yet subtracted, and their unused hits already are. Processes sharing the load evenly are within
   * a block of the truth; small limits (blocks of one hit) stay exact.
   */
  hit(subject: string, limit: number, now = Date.now()): RateLimitDecision | Promise<RateLimitDecision> {
    const windowStartedAt = Math.floor(now / windowMs) * windowMs;
    const resetSeconds = Math.max(1, Math.ceil((windowStartedAt + windowMs - now) / 1000));
    const held = this.reservations.get(subject);
    if (held && held.windowStartedAt === windowStartedAt && held.unused > 0) {
      held.unused--;
      return { allowed: true, limit, remaining: held.unused + held.unreserved, resetSeconds };
    }
    return this.reserve(subject, limit, windowStartedAt, resetSeconds);
  }

  /** `hit` when no reserved hit is left: reserves the next block in the store. */
  private async reserve(
    subject: string,
    limit: number,
    windowStartedAt: number,
    resetSeconds: number,
  ): Promise<RateLimitDecision> {
    const block = reservationSize(limit);
    const row = await this.store.db
      .insertInto("rate_limit_windows")
      .values({ subject, window_started_at: windowStartedAt, hits: block })
      .onConflict((conflict) =>
        conflict
          .columns(["subject", "window_started_at"])
          .doUpdateSet((eb) => ({ hits: eb("rate_limit_windows.hits", "+", block) })),
      )
      .returning("hits")
      .executeTakeFirstOrThrow();
    const total = Number(row.hits);
    // The part of this block that still fits under the limit.
    const granted = Math.min(block, Math.max(0, limit - (total - block)));
    if (granted === 0) return { allowed: false, limit, remaining: 0, resetSeconds };

    this.forgetStaleReservations(windowStartedAt);
    const unreserved = Math.max(0, limit - total);
    let current = this.reservations.get(subject);
    if (current && current.windowStartedAt === windowStartedAt) {
      // Concurrent requests of this process may have reserved at once: keep what the store said last.
      current.unused += granted - 1;
      current.unreserved = Math.min(current.unreserved, unreserved);
    } else {
      current = { windowStartedAt, unused: granted - 1, unreserved };
      this.reservations.set(subject, current);
    }
    return { allowed: true, limit, remaining: current.unused + current.unreserved, resetSeconds };
  }

  /** Keeps the map of reservations from growing with every subject ever seen. */
  private forgetStaleReservations(windowStartedAt: number): void {
    if (this.reservations.size < 10_000) return;
    for (const [subject, reservation] of this.reservations) {
      if (reservation.windowStartedAt !== windowStartedAt) this.reservations.delete(subject);
    }
  }

  /** Drops windows that can no longer matter. */
  async forgetOldWindows(now = Date.now()): Promise<void> {
    await this.store.db
      .deleteFrom("rate_limit_windows")
      .where("window_started_at", "<", now - 2 * windowMs)
      .execute();
  }
}
