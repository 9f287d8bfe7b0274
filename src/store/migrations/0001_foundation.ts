// The foundation: workspaces and their credits, API keys, saved schemas, rate-limit windows.
import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("meta")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("workspaces")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("plan_id", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("cycle_started_at", "bigint", (c) => c.notNull())
    .addColumn("balance", "bigint", (c) => c.notNull())
    .addColumn("used_this_cycle", "bigint", (c) => c.notNull())
    .addColumn("hard_cap", "bigint")
    .addColumn("jobs_queued", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("jobs_processing", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("jobs_done", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("jobs_failed", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("videos_processed", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("credit_ledger")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    .addColumn("balance_after", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("credit_ledger_by_workspace")
    .on("credit_ledger")
    .columns(["workspace_id", "created_at"])
    .execute();

  await db.schema
    .createTable("daily_credits")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("credits", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("daily_credits_pk", ["workspace_id", "day"])
    .execute();

  await db.schema
    .createTable("failure_counts")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("count", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("failure_counts_pk", ["workspace_id", "code"])
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("last_four", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("last_used_at", "bigint")
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema
    .createIndex("api_keys_by_workspace")
    .on("api_keys")
    .columns(["workspace_id", "id"])
    .execute();

  await db.schema
    .createTable("schemas")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("latest_version", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("schemas_name_per_workspace", ["workspace_id", "name"])
    .execute();

  await db.schema
    .createTable("schema_versions")
    .addColumn("schema_id", "text", (c) => c.notNull().references("schemas.id"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("definition", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("schema_versions_pk", ["schema_id", "version"])
    .execute();

  await db.schema
    .createTable("rate_limit_windows")
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("window_started_at", "bigint", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limit_windows_pk", ["subject", "window_started_at"])
    .execute();
  await db.schema
    .createIndex("rate_limit_windows_by_age")
    .on("rate_limit_windows")
    .column("window_started_at")
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "rate_limit_windows",
    "schema_versions",
    "schemas",
    "api_keys",
    "failure_counts",
    "daily_credits",
    "credit_ledger",
    "workspaces",
    "meta",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
