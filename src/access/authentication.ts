// Who is calling: what the access check of either database answers for a presented key.
import type { MaybePromise } from "../concurrency/maybe-promise.js";
import type { Plan, PlanTable } from "../domain/plans.js";
import type { ReadStamp } from "../store/stamped-cache.js";
import type { WindowView } from "./rate-limiter.js";

export interface Caller {
  readonly workspaceId: string;
  readonly keyId: string;
  readonly plan: Plan;
}

/** A presented key found live, and what the request learnt on the way. */
export interface KeyCheck {
  readonly caller: Caller;
  /** What the request's remembered answers are checked against (see `ReadStamp`); none when remembering is off. */
  readonly readStamp: ReadStamp | undefined;
  /** What the request saw of its workspace's rate-limit window (see `RateLimiter.hit`). */
  readonly window: WindowView;
}

/**
 * Resolves presented keys: `RememberedKeys` on SQLite, `PostgresKeyCheck` (postgres-access-check.ts) on
 * PostgreSQL, picked by the composition root.
 */
export interface Authenticator {
  /**
   * The key's caller and the request's read stamp, or null for a malformed, unknown or revoked key.
   * `arrival` is the stamp read as the request arrived (SQLite's write stamp), if the store has one.
   * Answers at once, not through a promise, when the store need not be asked.
   */
  check(presentedKey: string, now: number, arrival: ReadStamp | undefined): MaybePromise<KeyCheck | null>;
  /** The caller behind a presented key, or null: `check` for code that wants the caller only. */
  identify(presentedKey: string, now?: number): MaybePromise<Caller | null>;
}

// `last_used_at` is promised to within a minute, so a busy key costs one write a minute, not one a request.
export const lastUsedPrecisionMs = 60_000;

/** A key's row as the check reads it. */
export interface KeyOwner {
  id: string;
  workspace_id: string;
  last_used_at: number | null;
  plan_id: string;
}

/** Whether a key read with `last_used_at` should have it written again at `now`. */
export function lastUseDue(owner: Pick<KeyOwner, "last_used_at">, now: number): boolean {
  return owner.last_used_at === null || now - owner.last_used_at >= lastUsedPrecisionMs;
}

/** The caller of a key's row, on its workspace's plan. */
export function callerOfKeyOwner(owner: KeyOwner, plans: PlanTable): Caller {
  const plan = plans.get(owner.plan_id);
  if (!plan) {
    throw new Error(
      `Workspace ${owner.workspace_id} is on plan "${owner.plan_id}", which the plan table lacks.`,
    );
  }
  return { workspaceId: owner.workspace_id, keyId: owner.id, plan };
}
