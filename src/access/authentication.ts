// Who is calling: what the access check answers for a request, on either database.
import type { MaybePromise } from "../concurrency/maybe-promise.js";
import type { Plan, PlanTable } from "../domain/plans.js";
import type { ReadStamp } from "../store/stamped-cache.js";
import type { WindowHits } from "./rate-limiter.js";

export interface Caller {
  readonly workspaceId: string;
  readonly keyId: string;
  readonly plan: Plan;
}

/**
 * What a request is, as of its arrival: who presents its key, and the two things it may trust from
 * then on. Its remembered answers are checked against `readStamp` (store/stamped-cache.ts); its
 * rate-limit window's count comes from `windowHits` (access/rate-limiter.ts).
 */
export interface Admission {
  /** The key's caller; null without a key, or for a malformed, unknown or revoked one. */
  readonly caller: Caller | null;
  /** Undefined without a caller, or when remembering is off (VIDROWS_REMEMBER_ANSWERS=0). */
  readonly readStamp: ReadStamp | undefined;
  readonly windowHits: WindowHits;
}

/**
 * The access check of one database, chosen once by the composition root (app/services.ts). The two,
 * side by side, say how a request is authenticated:
 *
 * - SQLite (sqlite-access-check.ts): the key looked up by its hash and remembered until anything is
 *   written to the file; the read stamp is the file's, read as the request arrives; the window's count
 *   is read again, at once, only when another process has committed since.
 * - PostgreSQL (postgres-access-check.ts): one statement per request reads the key, its workspace's
 *   write version (the read stamp) and the window's count; nothing about keys is remembered.
 */
export interface AccessCheck {
  /**
   * Admits a request that presents `presentedKey` (undefined: none). Answers at once, not through a
   * promise, when the store need not be asked (SQLite's remembered keys; see `MaybePromise`).
   */
  admit(presentedKey: string | undefined, now: number): MaybePromise<Admission>;
  /** The caller behind a presented key, or null: `admit` for code that wants the caller only. */
  identify(presentedKey: string, now?: number): Promise<Caller | null>;
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
export function callerOf(owner: KeyOwner, plans: PlanTable): Caller {
  const plan = plans.get(owner.plan_id);
  if (!plan) {
    throw new Error(
      `Workspace ${owner.workspace_id} is on plan "${owner.plan_id}", which the plan table lacks.`,
    );
  }
  return { workspaceId: owner.workspace_id, keyId: owner.id, plan };
}
