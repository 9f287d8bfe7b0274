// SQLite: how a request is admitted. Its key is looked up by its hash and remembered until anything is
// written to the file; the file's read stamp and the rate-limit window's count go by one reading of
// the file, taken as the request arrives.
import { type MaybePromise, whenReady } from "../concurrency/maybe-promise.js";
import { looksLikeApiKey } from "../domain/api-key-material.js";
import type { PlanTable } from "../domain/plans.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { SqliteStore } from "../store/sqlite/open-sqlite.js";
import {
  type AccessCheck,
  type Admission,
  type Caller,
  callerOf,
  type KeyOwner,
  lastUsedPrecisionMs,
  lastUseDue,
} from "./authentication.js";
import { KeyHashes } from "./key-hashes.js";
import type { WindowHits } from "./rate-limiter.js";

/** A resolved key, kept while the database has not changed since it was read. */
interface RememberedKey {
  readonly owner: KeyOwner;
  readonly caller: Caller;
}

// Bounds the memory of remembered keys, and of windows read; past it the memory starts over (a key
// costs one lookup again, a window one read).
const maxRemembered = 10_000;

/**
 * The access check on SQLite (see `AccessCheck`). Each request first reads the file's read stamp
 * (`SqliteStore.readStampFromNow`), and everything else goes by that one reading:
 *
 * - the key: looked up in the store by its hash, through a unique index, and remembered until anything
 *   at all is written to the database (by any process), so a revocation made anywhere is seen on the
 *   very next request all the same;
 * - the read stamp: the request's remembered answers are checked against it;
 * - the rate-limit window's count: only another process can have reserved hits this one does not know
 *   of, so the count is read again, at once, only when other connections have committed since it was
 *   last read (`othersCommits`).
 */
export class SqliteAccessCheck implements AccessCheck {
  /** Keys resolved since the read stamp last moved, by hash; none while remembering is off. */
  private readonly remembered = new Map<string, RememberedKey>();
  private rememberedAt: string | undefined;
  /** Per subject, the window and the other connections' commits as of its count's last reading. */
  private readonly windowsReadAt = new Map<string, { windowStartedAt: number; othersCommits: string }>();
  /** Hashes of keys presented lately: a client sends the same key request after request. */
  private readonly hashes = new KeyHashes(maxRemembered);
  private readonly liveKeyByHash: PreparedQuery<{ keyHash: string }, KeyOwner>;
  private readonly markUsed: PreparedQuery<{ now: number; keyId: string }, unknown>;
  private readonly hitsOfWindow: PreparedQuery<
    { subject: string; windowStartedAt: number },
    { hits: number }
  >;

  constructor(
    private readonly store: SqliteStore,
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
    this.hitsOfWindow = prepareQuery(store.db, (db, { subject, windowStartedAt }) =>
      db
        .selectFrom("rate_limit_windows")
        .select("hits")
        .where("subject", "=", subject)
        .where("window_started_at", "=", windowStartedAt),
    );
  }

  async identify(presentedKey: string, now = Date.now()): Promise<Caller | null> {
    return (await this.admit(presentedKey, now)).caller;
  }

  admit(presentedKey: string | undefined, now: number): MaybePromise<Admission> {
    const arrival = this.store.readStampFromNow();
    const windowHits: WindowHits = (subject, windowStartedAt) =>
      this.windowHitsSince(arrival.othersCommits, subject, windowStartedAt);
    if (presentedKey === undefined) return { caller: null, readStamp: undefined, windowHits };
    const readStamp = this.store.remembersAnswers ? arrival : undefined;
    // Read before the lookup: whatever is written after this moment moves it, and so forgets what
    // the lookup finds.
    const stamp = readStamp?.value();
    return whenReady(this.callerFor(presentedKey, now, stamp), (caller) =>
      caller === null ? { caller, readStamp: undefined, windowHits } : { caller, readStamp, windowHits },
    );
  }

  /** The window's count, read at once, unless no other connection has committed since it last was. */
  private windowHitsSince(
    othersCommits: string,
    subject: string,
    windowStartedAt: number,
  ): number | undefined {
    const last = this.windowsReadAt.get(subject);
    if (last?.windowStartedAt === windowStartedAt && last.othersCommits === othersCommits) return undefined;
    const row = this.store.readNow(this.hitsOfWindow.compile({ subject, windowStartedAt }));
    if (this.windowsReadAt.size >= maxRemembered) this.windowsReadAt.clear();
    this.windowsReadAt.set(subject, { windowStartedAt, othersCommits });
    return Number(row?.hits ?? 0);
  }

  /**
   * The caller behind a presented key, or null for a malformed, unknown or revoked one. `stamp` is
   * the request's read stamp as it arrived; undefined (remembering is off) remembers nothing.
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
      if (this.remembered.size >= maxRemembered) this.remembered.clear();
      this.remembered.set(keyHash, { owner, caller });
    }
    return caller;
  }
}
