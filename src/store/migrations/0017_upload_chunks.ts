// Upload bytes kept in the database itself (PostgreSQL), so that every API and worker machine reaches them.
import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * `upload_blobs` has one row per upload stored in the database: its data key, when its writing began
 * (`started_at`, Unix ms) and, once whole, its size (`stored_bytes`; null while the body still arrives).
 * `upload_chunks` holds the bytes as pieces of about a MiB in order (`seq` from 0), each sealed under the
 * upload's key (uploads/database-upload-store.ts). Deleting an upload deletes its row and chunks, and
 * rewriting the small `upload_blobs` table removes the key from the files; the chunks' ciphertext that
 * PostgreSQL leaves in its files is then noise. Neither column is sampled for planner statistics, and the
 * chunks are kept out of line uncompressed (ciphertext does not compress). On SQLite the tables are
 * created for one schema and stay empty: SQLite keeps uploads in a folder.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const bytes = postgres ? "bytea" : "blob";
  await db.schema
    .createTable("upload_blobs")
    .addColumn("upload_id", "text", (c) => c.primaryKey())
    .addColumn("data_key", bytes, (c) => c.notNull())
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("stored_bytes", "bigint")
    .execute();
  await db.schema
    .createTable("upload_chunks")
    .addColumn("upload_id", "text", (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("bytes", bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint("upload_chunks_pkey", ["upload_id", "seq"])
    .execute();
  if (!postgres) return;
  await sql`alter table upload_blobs alter column data_key set statistics 0`.execute(db);
  await sql`alter table upload_chunks alter column bytes set statistics 0`.execute(db);
  await sql`alter table upload_chunks alter column bytes set storage external`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("upload_chunks").execute();
  await db.schema.dropTable("upload_blobs").execute();
}
