// A per-minute request budget per subject, counted in the shared store so it holds across processes.
import type { Store } from "../store/database.js";
import { isDatabaseUnavailable } from "../store/errors.js";

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the current window ends and the budget is whole again. */
  readonly resetSeconds: number;
}

const windowMs = 60_000;

/** The start of the one-minute window `now` falls in, Unix ms. */
export function windowStartOf(now: number): number {
  return Math.floor(now / windowMs) * windowMs;
}

/** The subject a workspace's requests are counted under (anonymous ones: `ip:<address>`). */
export const workspaceSubjectPrefix = "ws:";
export function workspaceSubject(workspaceId: string): string {
  return `${workspaceSubjectPrefix}${workspaceId}`;
}

/**
 * What a request can learn, as it arrives, of its subject's window: the hits every process has
 * reserved in it, or undefined when it can learn nothing this process does not already know. Made by
 * the database's access check (see `Admission`, authentication.ts): PostgreSQL's reads the count with
 * the key; SQLite's reads it at once, only when another process has committed since it last did.
 */
export type WindowHits = (subject: string, windowStartedAt: number) => number | undefined;

/** For a request that can learn nothing of its window beyond what this process knows. */
export const nothingLearnt: WindowHits = () => undefined;

/** Hits this process has taken from the store for a subject's current window but not used yet. */
interface Reservation {
  windowStartedAt: number;
  unused: number;
  /** The most hits the store was known to hold reserved for the window, by every process. */
  reservedHits: number;
  /** The store refused a block: the window's budget is spent for every process until it ends. */
  spent: boolean;
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
  /** The reservation each subject has in flight: requests that find no hit wait for it, not add another. */
  private readonly reserving = new Map<string, Promise<RateLimitDecision>>();

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
   * `remaining` is the workspace's budget, not this process's block: its unused hits plus those no
   * process has reserved, as of the latest count of reserved hits this process knows (`windowHits`,
   * and its own reservations). Every hit another process reserved is either used or held unused by it, so
   * this is never more than the truth, and less by at most the blocks the others hold unused: exact on
   * one process, within the others' blocks across several (exact for small limits, blocks of one).
   */
  hit(
    subject: string,
    limit: number,
    now = Date.now(),
    windowHits: WindowHits = nothingLearnt,
  ): RateLimitDecision | Promise<RateLimitDecision> {
    const windowStartedAt = windowStartOf(now);
    const resetSeconds = Math.max(1, Math.ceil((windowStartedAt + windowMs - now) / 1000));
    const held = this.reservations.get(subject);
    if (held && held.windowStartedAt === windowStartedAt) {
      // A window only fills up: once the store refused a block, every request is refused until it ends,
      // without a write. A flood of refused requests then costs the database nothing.
      if (held.spent) return { allowed: false, limit, remaining: 0, resetSeconds };
      const learnt = windowHits(subject, windowStartedAt);
      if (learnt !== undefined) held.reservedHits = Math.max(held.reservedHits, learnt);
      if (held.unused > 0) {
        held.unused--;
        return { allowed: true, limit, remaining: remainingOf(held, limit), resetSeconds };
      }
    }
    // One reservation at a time per subject: 50 requests arriving together on a fresh process used to
    // reserve 50 blocks (half a large budget) at once, hits the other processes then could not use.
    const inFlight = this.reserving.get(subject);
    if (inFlight) return inFlight.then(() => this.hit(subject, limit, now, windowHits));
    const reservation = this.reserve(subject, limit, windowStartedAt, resetSeconds);
    this.reserving.set(subject, reservation);
    const forget = () => {
      if (this.reserving.get(subject) === reservation) this.reserving.delete(subject);
    };
    reservation.then(forget, forget);
    return reservation;
  }

  /**
   * `hit` when no reserved hit is left: reserves the next block in the store, or, while the store
   * cannot be written (SQLite's disk full, its files read-only), in this process alone (see
   * `reserveInProcess`).
   */
  private async reserve(
    subject: string,
    limit: number,
    windowStartedAt: number,
    resetSeconds: number,
  ): Promise<RateLimitDecision> {
    const block = reservationSize(limit);
    let total: number;
    try {
      total = await this.reserveInStore(subject, limit, windowStartedAt, block);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      return this.reserveInProcess(subject, limit, windowStartedAt, resetSeconds, block);
    }
    this.forgetStaleReservations(windowStartedAt);
    let current = this.reservations.get(subject);
    const sameWindow = current !== undefined && current.windowStartedAt === windowStartedAt;
    // The store's count only grows, so it is normally above all this process knew. Hits counted in
    // this process while the store could not be written are not in it, and still count.
    const known = Math.max(total, (sameWindow ? (current as Reservation).reservedHits : 0) + block);
    // The part of this block that still fits under the limit.
    const granted = Math.min(block, Math.max(0, limit - (known - block)));
    if (granted === 0) {
      const spent = { windowStartedAt, unused: 0, reservedHits: known, spent: true };
      this.reservations.set(subject, spent);
      return { allowed: false, limit, remaining: 0, resetSeconds };
    }
    if (current && sameWindow) {
      // Concurrent requests of this process may have reserved at once: each adds its block.
      current.unused += granted - 1;
      current.reservedHits = Math.max(current.reservedHits, known);
    } else {
      current = {
        windowStartedAt,
        unused: granted - 1,
        reservedHits: known,
        spent: false,
      };
      this.reservations.set(subject, current);
    }
    return { allowed: true, limit, remaining: remainingOf(current, limit), resetSeconds };
  }

  /** Adds a block to the window's count in the store; answers the count with it. */
  private async reserveInStore(
    subject: string,
    limit: number,
    windowStartedAt: number,
    block: number,
  ): Promise<number> {
    const row = await this.store.db
      .insertInto("rate_limit_windows")
      .values({ subject, window_started_at: windowStartedAt, hits: block })
      .onConflict((conflict) =>
        conflict
          .columns(["subject", "window_started_at"])
          // Capped a block past the limit: past it no block fits anyway (`granted` below is then 0), and an
          // uncapped count grew with every refused request until PostgreSQL's integer overflowed (a 500).
          // A CASE, which both databases write alike (SQLite's two-argument min is PostgreSQL's least).
          .doUpdateSet((eb) => ({
            hits: eb
              .case()
              .when(eb(eb("rate_limit_windows.hits", "+", block), "<", limit + block))
              .then(eb("rate_limit_windows.hits", "+", block))
              .else(limit + block)
              .end(),
          })),
      )
      .returning("hits")
      .executeTakeFirstOrThrow();
    return Number(row.hits);
  }

  /**
   * A block reserved in this process only, when the store could be read (the key was found) but not
   * written. The count is bookkeeping for the request, not the request's own work: refusing every
   * request for it would turn every read into a 503 (on the small plans every request writes its
   * count), so the budget is kept here instead, against the most hits this process knows the store
   * holds for the window. This process never passes the limit; several processes together may pass
   * it by what each counted here, for as long as the store cannot be written. The next block is asked
   * of the store again, so counting there resumes as soon as it can be written.
   */
  private reserveInProcess(
    subject: string,
    limit: number,
    windowStartedAt: number,
    resetSeconds: number,
    block: number,
  ): RateLimitDecision {
    this.forgetStaleReservations(windowStartedAt);
    let current = this.reservations.get(subject);
    if (!current || current.windowStartedAt !== windowStartedAt) {
      current = { windowStartedAt, unused: 0, reservedHits: 0, spent: false };
      this.reservations.set(subject, current);
    }
    const granted = Math.min(block, Math.max(0, limit - current.reservedHits));
    if (granted === 0) return { allowed: false, limit, remaining: 0, resetSeconds };
    current.reservedHits += granted;
    current.unused += granted - 1;
    return { allowed: true, limit, remaining: remainingOf(current, limit), resetSeconds };
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

/** The workspace's remaining budget as far as this process knows (see `RateLimiter.hit`). */
function remainingOf(held: Reservation, limit: number): number {
  return held.unused + Math.max(0, limit - held.reservedHits);
}
