// Files a workspace uploaded (`POST /v1/uploads`): what was measured of each, never the bytes themselves.
import type { Kysely } from "kysely";

/**
 * `uploads` describes each stored upload: its size, the seconds its audio's packets span
 * (`duration_ms`), the index of its first subtitle stream (null: none), and until when it is kept unused
 * (`expires_at`, Unix ms). `job_id` is null while the upload is pending and names the job that took it
 * afterwards. The bytes live in the upload store (uploads/upload-store.ts), under the upload's id.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("uploads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull())
    .addColumn("bytes", "bigint", (c) => c.notNull())
    .addColumn("duration_ms", "bigint", (c) => c.notNull())
    .addColumn("subtitle_stream", "integer")
    .addColumn("job_id", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("uploads_by_workspace").on("uploads").columns(["workspace_id", "id"]).execute();
  await db.schema.createIndex("uploads_by_expiry").on("uploads").column("expires_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("uploads").execute();
}
