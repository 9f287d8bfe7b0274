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

export class RateLimiter {
  constructor(private readonly store: Store) {}

  /**
   * Counts one request of `subject` in the current minute and says whether it is within `limit`.
   * Fixed one-minute windows: one atomic upsert per request, the same on SQLite and PostgreSQL,
   * and every process sharing the database sees the same count.
   */
  async hit(subject: string, limit: number, now = Date.now()): Promise<RateLimitDecision> {
    const windowStartedAt = Math.floor(now / windowMs) * windowMs;
    const row = await this.store.db
      .insertInto("rate_limit_windows")
      .values({ subject, window_started_at: windowStartedAt, hits: 1 })
      .onConflict((conflict) =>
        conflict
          .columns(["subject", "window_started_at"])
          .doUpdateSet((eb) => ({ hits: eb("rate_limit_windows.hits", "+", 1) })),
      )
      .returning("hits")
      .executeTakeFirstOrThrow();
    const hits = Number(row.hits);
    return {
      allowed: hits <= limit,
      limit,
      remaining: Math.max(0, limit - hits),
      resetSeconds: Math.max(1, Math.ceil((windowStartedAt + windowMs - now) / 1000)),
    };
  }

  /** Drops windows that can no longer matter. */
  async forgetOldWindows(now = Date.now()): Promise<void> {
    await this.store.db
      .deleteFrom("rate_limit_windows")
      .where("window_started_at", "<", now - 2 * windowMs)
      .execute();
  }
}
