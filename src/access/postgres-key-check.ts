// PostgreSQL: each request's key, its workspace's write version and rate-limit window, in one statement.
import { sql } from "kysely";
import type { MaybePromise } from "../concurrency/maybe-promise.js";
import { looksLikeApiKey } from "../domain/api-key-material.js";
import type { PlanTable } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import {
  type Authenticator,
  type Caller,
  callerOf,
  type KeyCheck,
  type KeyOwner,
  lastUseDue,
} from "./authentication.js";
import { KeyHashes } from "./key-hashes.js";
import { windowStartOf, workspaceSubjectPrefix } from "./rate-limiter.js";

interface CheckedKey extends KeyOwner {
  /** The workspace's write version (migration 0011); null before its first write. */
  version: number | null;
  /** The hits reserved in the workspace's current rate-limit window by every process; null before the first. */
  window_hits: number | null;
}

/**
 * The key check of every request on PostgreSQL, and all it learns in the same round trip: the key
 * live (not revoked) and its workspace's plan, the workspace's write version, and the hits reserved
 * in its rate-limit window. One named statement (see store/named-statements.ts), run as the request
 * arrives, so that:
 *
 * - a key revoked by any process is refused on the very next request here (nothing about keys is
 *   remembered between requests; revoking commits before its response is sent);
 * - the version is as of the request's arrival, and the request's remembered answers are checked
 *   against it (`ReadStamp` scoped to the workspace): a write committed before the request arrived,
 *   by any process, has moved it, so no answer older than the request is served;
 * - `RateLimit-Remaining` counts what the other processes reserved up to now (`RateLimiter.hit`).
 */
export class PostgresKeyCheck implements Authenticator {
  /** Hashes of keys presented lately: a client sends the same key request after request. */
  private readonly hashes = new KeyHashes(10_000);
  private readonly liveKey: PreparedQuery<{ keyHash: string; windowStartedAt: number }, CheckedKey>;
  private readonly markUsed: PreparedQuery<{ now: number; keyId: string }, unknown>;

  constructor(
    private readonly store: Store,
    private readonly plans: PlanTable,
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
    return (await this.check(presentedKey, now))?.caller ?? null;
  }

  check(presentedKey: string, now: number): MaybePromise<KeyCheck | null> {
    if (!looksLikeApiKey(presentedKey)) return null;
    return this.lookUp(this.hashes.of(presentedKey), now);
  }

  private async lookUp(keyHash: string, now: number): Promise<KeyCheck | null> {
    const key = await this.liveKey.first(this.store.db, { keyHash, windowStartedAt: windowStartOf(now) });
    if (!key) return null;
    if (lastUseDue(key, now)) {
      // Bookkeeping: when the store can be read but not written, the key still lets the request in,
      // and a later request records the use. The write moves the workspace's version (the key list
      // shows it), so answers computed for this request are not served to the next.
      await this.markUsed.run(this.store.db, { now, keyId: key.id }).catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
      });
    }
    const version = String(key.version ?? 0);
    return {
      caller: callerOf(key, this.plans),
      readStamp: this.store.remembersAnswers ? { scope: key.workspace_id, value: () => version } : undefined,
      window: { reservedHits: Number(key.window_hits ?? 0) },
    };
  }
}
