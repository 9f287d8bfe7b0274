// API keys of a workspace: listing, creating within the plan's allowance, revoking.
import type { Kysely, Transaction } from "kysely";
import { generateApiKey, hashApiKey, type KeyEnvironment, maskApiKey } from "../domain/api-key-material.js";
import { newId } from "../domain/ids.js";
import { formatTimestamp } from "../domain/timestamps.js";
import { ApiError } from "../http/api-errors.js";
import type { Plan } from "../domain/plans.js";
import type { WorkspaceScope } from "../http/request-context.js";
import type { Store } from "../store/database.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { ApiKeyRow, Database } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import type { ApiKey, CreatedKey } from "./key-schemas.js";

export interface NewKeyInput {
  label?: string;
  note?: string;
  environment?: KeyEnvironment;
}

const viewColumns = [
  "id",
  "label",
  "environment",
  "last_four",
  "last_used_at",
  "revoked_at",
  "created_at",
] as const;

function view(row: Pick<ApiKeyRow, (typeof viewColumns)[number]>): ApiKey {
  return {
    id: row.id,
    label: row.label,
    masked_key: maskApiKey(row.environment, row.last_four),
    environment: row.environment,
    last_used_at: formatTimestamp(row.last_used_at),
    revoked_at: formatTimestamp(row.revoked_at),
    created_at: formatTimestamp(row.created_at),
  };
}

/** Writes a new key for a workspace; the caller checks allowances. Returns the only copy of the full key. */
export async function insertApiKey(
  db: Kysely<Database> | Transaction<Database>,
  workspaceId: string,
  input: NewKeyInput,
  now = Date.now(),
): Promise<CreatedKey> {
  const environment = input.environment ?? "live";
  const key = generateApiKey(environment);
  const id = newId("key", now);
  const label = input.label ?? "";
  await db
    .insertInto("api_keys")
    .values({
      id,
      workspace_id: workspaceId,
      environment,
      label,
      note: input.note ?? "",
      key_hash: hashApiKey(key),
      last_four: key.slice(-4),
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { id, key, label };
}

export class ApiKeyService {
  private readonly keysOfWorkspace: PreparedQuery<
    { workspaceId: string },
    Pick<ApiKeyRow, (typeof viewColumns)[number]>
  >;

  constructor(private readonly store: Store) {
    this.keysOfWorkspace = prepareQuery(store.db, (db, { workspaceId }) =>
      db
        .selectFrom("api_keys")
        .select(viewColumns)
        .where("workspace_id", "=", workspaceId)
        .orderBy("id", "desc"),
    );
  }

  /** Every key of the workspace, revoked ones included, newest first. */
  async list(context: WorkspaceScope): Promise<ApiKey[]> {
    return (await this.keysOfWorkspace.rows(this.store.db, { workspaceId: context.workspaceId })).map(view);
  }

  async create(workspaceId: string, plan: Plan, input: NewKeyInput): Promise<CreatedKey> {
    return this.store.db.transaction().execute(async (trx) => {
      // Two concurrent creations must not both fit into the last free place.
      await lockWorkspace(trx, workspaceId);
      const { live } = await trx
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll<number>().as("live"))
        .where("workspace_id", "=", workspaceId)
        .where("revoked_at", "is", null)
        .executeTakeFirstOrThrow();
      if (Number(live) >= plan.apiKeys) {
        throw new ApiError(
          "plan_limit",
          `The ${plan.name} plan allows ${plan.apiKeys} active API keys; revoke one or change plans.`,
        );
      }
      return insertApiKey(trx, workspaceId, input);
    });
  }

  /** Revokes a key for good. Revoking a key that is already revoked changes nothing and succeeds. */
  async revoke(workspaceId: string, keyId: string): Promise<void> {
    const result = await this.store.db
      .updateTable("api_keys")
      .set({ revoked_at: Date.now() })
      .where("id", "=", keyId)
      .where("workspace_id", "=", workspaceId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return;
    const exists = await this.store.db
      .selectFrom("api_keys")
      .select("id")
      .where("id", "=", keyId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (!exists) throw new ApiError("key_not_found", `No API key ${keyId} in this workspace.`, "id");
  }
}
