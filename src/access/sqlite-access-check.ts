// SQLite: each request's key looked up by its hash, remembered until anything is written to the file.
import { type MaybePromise, whenReady } from "../concurrency/maybe-promise.js";
import { looksLikeApiKey } from "../domain/api-key-material.js";
import type { PlanTable } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { ReadStamp } from "../store/stamped-cache.js";
import {
  type Authenticator,
  type Caller,
  callerOfKeyOwner,
  type KeyCheck,
  type KeyOwner,
  lastUsedPrecisionMs,
  lastUseDue,
} from "./authentication.js";
import { KeyHashes } from "./key-hashes.js";

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
    const caller = known?.caller ?? callerOfKeyOwner(owner, this.plans);
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
