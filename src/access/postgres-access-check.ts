// PostgreSQL: how a request is admitted. One statement reads its key, its workspace's write version
// (the read stamp) and its rate-limit window's count; nothing about keys is remembered.
import { sql } from "kysely";
import type { MaybePromise } from "../concurrency/maybe-promise.js";
import { looksLikeApiKey } from "../domain/api-key-material.js";
import type { PlanTable } from "../domain/plans.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import type { PostgresStore } from "../store/postgres/open-postgres.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import {
  type AccessCheck,
  type Admission,
  type Caller,
  callerOfKeyOwner,
  type KeyOwner,
  lastUseDue,
} from "./authentication.js";
import { KeyHashes } from "./key-hashes.js";
import { nothingLearnt, windowStartOf, workspaceSubjectPrefix } from "./rate-limiter.js";

/** A request without a live key: nothing to trust, nothing learnt of its window. */
const nobody: Admission = { caller: null, readStamp: undefined, windowHits: nothingLearnt };

interface CheckedKey extends KeyOwner {
  /** The workspace's write version (migration 0011); null before its first write. */
  version: number | null;
  /** The hits reserved in the workspace's current rate-limit window by every process; null before the first. */
  window_hits: number | null;
}

/**
 * The access check on PostgreSQL (see `AccessCheck`), and all it learns in the same round trip: the key
 * live (not revoked) and its workspace's plan, the workspace's write version, and the hits reserved
 * in its rate-limit window. One named statement (see store/postgres/named-statements.ts), sent after the
 * request arrived (and shared by the requests of the same key that arrived while it was not yet sent:
 * see `sharedCheck`), so that:
 *
 * - a key revoked by any process is refused on the very next request here (nothing about keys is
 *   remembered between requests; revoking commits before its response is sent);
 * - the version is as of the request's arrival, and the request's remembered answers are checked
 *   against it (`ReadStamp` scoped to the workspace): a write committed before the request arrived,
 *   by any process, has moved it, so no answer older than the request is served;
 * - `RateLimit-Remaining` counts what the other processes reserved up to now (`RateLimiter.hit`).
 */
export class PostgresAccessCheck implements AccessCheck {
  /** Hashes of keys presented lately: a client sends the same key request after request. */
  private readonly hashes = new KeyHashes(10_000);
  private readonly liveKey: PreparedQuery<{ keyHash: string; windowStartedAt: number }, CheckedKey>;
  private readonly markUsed: PreparedQuery<{ now: number; keyId: string }, unknown>;
  /** The check on its way for each key and rate-limit window (see `sharedCheck`). */
  private readonly sent = new Map<string, Promise<CheckedKey | undefined>>();
  /** The check to send when that one is back, for the requests that arrived after it was sent. */
  private readonly next = new Map<string, Promise<CheckedKey | undefined>>();

  constructor(
    private readonly store: PostgresStore,
    private readonly plans: PlanTable,
    /** `shareChecks: false` (VIDROWS_SHARED_KEY_CHECKS=0): every request sends a check of its own. */
    private readonly options: { readonly shareChecks: boolean } = { shareChecks: true },
  ) {
    this.liveKey = prepareQuery(store.db, (db, { keyHash, windowStartedAt }) =>
      db
        .selectFrom("api_keys")
        .innerJoin("workspaces", "workspaces.id", "api_keys.workspace_id")
        .leftJoin("workspace_versions", "workspace_versions.workspace_id", "api_keys.workspace_id")
        .leftJoin("rate_limit_windows", (join) =>
          join
            .on(
              "rate_limit_windows.subject",
              "=",
              sql<string>`${workspaceSubjectPrefix} || api_keys.workspace_id`,
            )
            .on("rate_limit_windows.window_started_at", "=", windowStartedAt),
        )
        .select([
          "api_keys.id",
          "api_keys.workspace_id",
          "api_keys.last_used_at",
          "workspaces.plan_id",
          "workspace_versions.version",
          "rate_limit_windows.hits as window_hits",
        ])
        .where("api_keys.key_hash", "=", keyHash)
        .where("api_keys.revoked_at", "is", null),
    );
    this.markUsed = prepareQuery(store.db, (db, { now, keyId }) =>
      db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", keyId),
    );
  }

  async identify(presentedKey: string, now = Date.now()): Promise<Caller | null> {
    return (await this.admit(presentedKey, now)).caller;
  }

  admit(presentedKey: string | undefined, now: number): MaybePromise<Admission> {
    if (presentedKey === undefined || !looksLikeApiKey(presentedKey)) return nobody;
    return this.lookUp(this.hashes.of(presentedKey), now);
  }

  private async lookUp(keyHash: string, now: number): Promise<Admission> {
    const key = await this.sharedCheck(keyHash, windowStartOf(now), now);
    if (!key) return nobody;
    const version = String(key.version ?? 0);
    // The workspace's window is the only one the request is counted in (access-control.ts).
    const windowHits = Number(key.window_hits ?? 0);
    return {
      caller: callerOfKeyOwner(key, this.plans),
      readStamp: this.store.remembersAnswers ? { scope: key.workspace_id, value: () => version } : undefined,
      windowHits: () => windowHits,
    };
  }

  /**
   * The statement's answer for this request, shared with the requests of the same key that arrived
   * meanwhile: under load a client sends many at once, and one statement can answer all those that
   * arrived before it was sent. One already on its way may have been sent before this request came,
   * so this one waits for the next, sent as soon as that one is back, with every request that arrived
   * in between. Each answer is thus read after its requests arrived, as if each had run its own.
   */
  private sharedCheck(
    keyHash: string,
    windowStartedAt: number,
    now: number,
  ): Promise<CheckedKey | undefined> {
    if (!this.options.shareChecks) return this.runCheck(keyHash, windowStartedAt, now);
    const flight = `${keyHash}:${windowStartedAt}`;
    const sent = this.sent.get(flight);
    if (!sent) return this.send(flight, keyHash, windowStartedAt, now);
    let next = this.next.get(flight);
    if (!next) {
      const sendNext = () => {
        this.next.delete(flight);
        return this.send(flight, keyHash, windowStartedAt, Date.now());
      };
      next = sent.then(sendNext, sendNext);
      this.next.set(flight, next);
    }
    return next;
  }

  /** Runs the check as the one of `flight` on its way. */
  private send(
    flight: string,
    keyHash: string,
    windowStartedAt: number,
    now: number,
  ): Promise<CheckedKey | undefined> {
    const checked = this.runCheck(keyHash, windowStartedAt, now);
    this.sent.set(flight, checked);
    const landed = () => {
      if (this.sent.get(flight) === checked) this.sent.delete(flight);
    };
    checked.then(landed, landed);
    return checked;
  }

  /** Runs the statement, and records the key's use when due. */
  private runCheck(keyHash: string, windowStartedAt: number, now: number): Promise<CheckedKey | undefined> {
    return this.liveKey.first(this.store.db, { keyHash, windowStartedAt }).then(async (key) => {
      if (key && lastUseDue(key, now)) await this.recordUse(key.id, now);
      return key;
    });
  }

  /**
   * Bookkeeping: when the store can be read but not written, the key still lets the request in, and a
   * later request records the use. The write moves the workspace's version (the key list shows it),
   * so answers computed for this request are not served to the next.
   */
  private async recordUse(keyId: string, now: number): Promise<void> {
    await this.markUsed.run(this.store.db, { now, keyId }).catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) throw error;
    });
  }
}
