// Jobs and their videos (the store is the queue), idempotency records, and the counters usage reads.
import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("workspaces")
    .addColumn("jobs_with_failures", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  // Fair queueing: each workspace's videos take consecutive priorities from here on (see claims).
  await db.schema
    .alterTable("workspaces")
    .addColumn("next_video_priority", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("schema_label", "text", (c) => c.notNull())
    .addColumn("schema_definition", "text", (c) => c.notNull())
    .addColumn("language", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("video_count", "integer", (c) => c.notNull())
    .addColumn("queued_count", "integer", (c) => c.notNull())
    .addColumn("processing_count", "integer", (c) => c.notNull())
    .addColumn("done_count", "integer", (c) => c.notNull())
    .addColumn("failed_count", "integer", (c) => c.notNull())
    .addColumn("has_failures", "integer", (c) => c.notNull())
    .addColumn("credits_charged", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("completed_at", "bigint")
    .addColumn("handed_over_at", "bigint")
    .execute();
  await db.schema.createIndex("jobs_by_workspace").on("jobs").columns(["workspace_id", "id"]).execute();
  await db.schema
    .createIndex("jobs_by_workspace_status")
    .on("jobs")
    .columns(["workspace_id", "status", "id"])
    .execute();
  await db.schema
    .createIndex("jobs_by_workspace_failures")
    .on("jobs")
    .columns(["workspace_id", "has_failures", "id"])
    .execute();

  await db.schema
    .createTable("videos")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id"))
    .addColumn("workspace_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("platform_video_id", "text", (c) => c.notNull())
    .addColumn("submitted_url", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("priority", "bigint", (c) => c.notNull())
    .addColumn("available_at", "bigint", (c) => c.notNull())
    .addColumn("lease_owner", "text")
    .addColumn("lease_expires_at", "bigint")
    .addColumn("claims", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rows", "text")
    .addColumn("row_count", "integer")
    .addColumn("duration_seconds", "integer")
    .addColumn("chunk_count", "integer")
    .addColumn("credits_charged", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addColumn("error_retryable", "integer")
    .addColumn("settled_at", "bigint")
    .execute();
  await db.schema.createIndex("videos_by_job").on("videos").columns(["job_id", "position"]).execute();
  await db.schema.createIndex("videos_queue").on("videos").columns(["status", "priority", "id"]).execute();
  await db.schema.createIndex("videos_leases").on("videos").columns(["status", "lease_expires_at"]).execute();
  await db.schema
    .createIndex("videos_by_workspace_id")
    .on("videos")
    .columns(["workspace_id", "id"])
    .execute();
  await db.schema
    .createIndex("videos_by_workspace_platform_id")
    .on("videos")
    .columns(["workspace_id", "platform_video_id"])
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("workspace_id", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("response_status", "integer", (c) => c.notNull())
    .addColumn("response_body", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["workspace_id", "key"])
    .execute();
  await db.schema
    .createIndex("idempotency_keys_by_age")
    .on("idempotency_keys")
    .column("created_at")
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("idempotency_keys").execute();
  await db.schema.dropTable("videos").execute();
  await db.schema.dropTable("jobs").execute();
  await db.schema.alterTable("workspaces").dropColumn("next_video_priority").execute();
  await db.schema.alterTable("workspaces").dropColumn("jobs_with_failures").execute();
}
