// Who is calling: an API key resolved to its workspace and plan with one indexed lookup.
import { type MaybePromise, whenReady } from "../concurrency/maybe-promise.js";
import { looksLikeApiKey } from "../domain/api-key-material.js";
import type { Plan, PlanTable } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { ReadStamp } from "../store/stamped-cache.js";
import { KeyHashes } from "./key-hashes.js";
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
 * Resolves presented keys: `RememberedKeys` on SQLite, `PostgresKeyCheck` (postgres-key-check.ts) on
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
export function callerOf(owner: KeyOwner, plans: PlanTable): Caller {
  const plan = plans.get(owner.plan_id);
  if (!plan) {
    throw new Error(
      `Workspace ${owner.workspace_id} is on plan "${owner.plan_id}", which the plan table lacks.`,
    );
  }
  return { workspaceId: owner.workspace_id, keyId: owner.id, plan };
}

/** A resolved key, kept while the database has not changed since it was read. */
interface RememberedKey {
  readonly owner: KeyOwner;
  readonly caller: Caller;
}

// Bounds the memory of remembered keys; past it the memory starts over (a key costs one lookup again).
const maxRememberedKeys = 10_000;

/** SQLite: keys resolved by one indexed lookup, remembered until the database is written to. */
export class RememberedKeys implements Authenticator {
  /** Keys resolved since the store's write stamp last moved, by hash. Only where the store has one. */
  private readonly remembered = new Map<string, RememberedKey>();
  private rememberedAt: string | undefined;
  /** Hashes of keys presented lately: a client sends the same key request after request. */
  private readonly hashes = new KeyHashes(maxRememberedKeys);
  private readonly liveKeyByHash: PreparedQuery<{ keyHash: string }, KeyOwner>;
  private readonly markUsed: PreparedQuery<{ now: number; keyId: string }, unknown>;

  constructor(
    private readonly store: Store,
    private readonly plans: PlanTable,
  ) {
    this.liveKeyByHash = prepareQuery(store.db, (db, { keyHash }) =>
      db
        .selectFrom("api_keys")
        .innerJoin("workspaces", "workspaces.id", "api_keys.workspace_id")
        .select(["api_keys.id", "api_keys.workspace_id", "api_keys.last_used_at", "workspaces.plan_id"])
        .where("api_keys.key_hash", "=", keyHash)
        .where("api_keys.revoked_at", "is", null),
    );
    this.markUsed = prepareQuery(store.db, (db, { now, keyId }) =>
      db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", keyId),
    );
  }

  identify(presentedKey: string, now = Date.now()): MaybePromise<Caller | null> {
    return this.callerFor(presentedKey, now, this.store.writeStamp?.());
  }

  check(presentedKey: string, now: number, arrival: ReadStamp | undefined): MaybePromise<KeyCheck | null> {
    // Read before the lookup: whatever is written after this moment moves it, and so forgets what
    // the lookup finds.
    const stamp = (arrival?.value ?? this.store.writeStamp)?.();
    return whenReady(this.callerFor(presentedKey, now, stamp), (caller) =>
      caller === null
        ? null
        : { caller, readStamp: arrival, window: { commitsByOthers: arrival?.commitsByOthers } },
    );
  }

  /**
   * The caller behind a presented key, or null for a malformed, unknown or revoked one. The key is
   * looked up in the store by its hash, through a unique index. A resolved key is remembered until
   * anything at all is written to the database (by any process: see `Store.writeStamp`), so a
   * revocation made anywhere is seen on the very next request all the same. `stamp` is the store's
   * write stamp as the request arrived (see `Store.writeStampFromNow`), if it has one.
   *
   * A remembered key (and a malformed one) is answered at once, not through a promise: every request
   * asks, and a promise and its turn of the microtask queue cost more than the answer.
   */
  private callerFor(
    presentedKey: string,
    now: number,
    stamp: string | undefined,
  ): MaybePromise<Caller | null> {
    if (!looksLikeApiKey(presentedKey)) return null;
    const keyHash = this.hashes.of(presentedKey);
    if (stamp !== this.rememberedAt) {
      this.remembered.clear();
      this.rememberedAt = stamp;
    }
    const known = stamp === undefined ? undefined : this.remembered.get(keyHash);
    if (known && now - (known.owner.last_used_at ?? 0) < lastUsedPrecisionMs) return known.caller;
    return this.lookUp(keyHash, known, stamp, now);
  }

  /** `identify` past what is remembered: the lookup, and `last_used_at` when it is due. */
  private async lookUp(
    keyHash: string,
    known: RememberedKey | undefined,
    stamp: string | undefined,
    now: number,
  ): Promise<Caller | null> {
    const owner = known?.owner ?? (await this.liveKeyByHash.first(this.store.db, { keyHash }));
    if (!owner) return null;
    const caller = known?.caller ?? callerOf(owner, this.plans);
    if (lastUseDue(owner, now)) {
      // This write moves the stamp, so nothing read so far is remembered past it. It is bookkeeping:
      // when the store can be read but not written (SQLite's disk full), the key still lets the
      // request in, and a later request records the use.
      await this.markUsed.run(this.store.db, { now, keyId: owner.id }).catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
      });
    } else if (stamp !== undefined) {
      if (this.remembered.size >= maxRememberedKeys) this.remembered.clear();
      this.remembered.set(keyHash, { owner, caller });
    }
    return caller;
  }
}
