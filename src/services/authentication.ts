// Who is calling: an API key resolved to its workspace and plan with one indexed lookup.
import { hashApiKey, looksLikeApiKey } from "../domain/api-key-material.js";
import type { Plan, PlanTable } from "../plans.js";
import type { Store } from "../store/database.js";

export interface Caller {
  readonly workspaceId: string;
  readonly keyId: string;
  readonly plan: Plan;
}

// `last_used_at` is promised to within a minute, so a busy key costs one write a minute, not one a request.
const lastUsedPrecisionMs = 60_000;

export class Authenticator {
  constructor(
    private readonly store: Store,
    private readonly plans: PlanTable,
  ) {}

  /**
   * The caller behind a presented key, or null for a malformed, unknown or revoked one. The key is
   * looked up in the store on every request (by its hash, through a unique index), so a revocation
   * made by any process is seen by every process on the very next request.
   */
  async identify(presentedKey: string, now = Date.now()): Promise<Caller | null> {
    if (!looksLikeApiKey(presentedKey)) return null;
    const row = await this.store.db
      .selectFrom("api_keys")
      .innerJoin("workspaces", "workspaces.id", "api_keys.workspace_id")
      .select(["api_keys.id", "api_keys.workspace_id", "api_keys.last_used_at", "workspaces.plan_id"])
      .where("api_keys.key_hash", "=", hashApiKey(presentedKey))
      .where("api_keys.revoked_at", "is", null)
      .executeTakeFirst();
    if (!row) return null;
    const plan = this.plans.get(row.plan_id);
    if (!plan) {
      throw new Error(
        `Workspace ${row.workspace_id} is on plan "${row.plan_id}", which the plan table lacks.`,
      );
    }
    if (row.last_used_at === null || now - row.last_used_at >= lastUsedPrecisionMs) {
      await this.store.db
        .updateTable("api_keys")
        .set({ last_used_at: now })
        .where("id", "=", row.id)
        .execute();
    }
    return { workspaceId: row.workspace_id, keyId: row.id, plan };
  }
}

/** The key sent as `Authorization: Bearer <key>` or `x-api-key: <key>`, if any. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === "string") {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const apiKey = headers["x-api-key"];
  if (typeof apiKey === "string" && apiKey.length > 0) return apiKey.trim();
  return undefined;
}
