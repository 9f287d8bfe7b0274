// Transcripts a workspace keeps for its later jobs of the same videos, sealed under keys of their own.
import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * `kept_transcripts` holds a workspace's transcripts (captions or speech-to-text) until `expires_at`
 * (Unix ms), found by `lookup` (the video, language and `transcribe` choice they answer). On PostgreSQL
 * each is sealed under a key of its own in `transcript_keys`, hash-partitioned and without planner
 * statistics as `job_keys` is (migration 0008), so that deleting an expired transcript's key and
 * rewriting its partition erases it from the files; on SQLite the table is created for one schema and
 * stays empty (deleted values are zeroed in place there). `jobs.reuse_transcripts` is 0 for a job that
 * asked to read afresh (null: reuse); `videos.transcript_source` says where a done video's words came
 * from: `captions`, `transcription` or `reused`.
 */
export const transcriptKeyPartitions = 16;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("reuse_transcripts", "integer").execute();
  await db.schema.alterTable("videos").addColumn("transcript_source", "text").execute();
  await db.schema
    .createTable("kept_transcripts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull())
    .addColumn("lookup", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("transcript", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("kept_transcripts_by_lookup")
    .on("kept_transcripts")
    .columns(["workspace_id", "lookup", "expires_at"])
    .execute();
  await db.schema
    .createIndex("kept_transcripts_by_expiry")
    .on("kept_transcripts")
    .column("expires_at")
    .execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema
      .createTable("transcript_keys")
      .addColumn("transcript_id", "text", (c) => c.primaryKey())
      .addColumn("data_key", "blob", (c) => c.notNull())
      .execute();
    return;
  }
  await sql`create table transcript_keys (transcript_id text primary key, data_key bytea not null)
    partition by hash (transcript_id)`.execute(db);
  for (let remainder = 0; remainder < transcriptKeyPartitions; remainder++) {
    await sql`create table ${sql.raw(`transcript_keys_${remainder}`)} partition of transcript_keys
      for values with (modulus ${sql.lit(transcriptKeyPartitions)}, remainder ${sql.lit(remainder)})`.execute(
      db,
    );
  }
  await sql`alter table transcript_keys alter column data_key set statistics 0`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("transcript_keys").execute();
  await db.schema.dropTable("kept_transcripts").execute();
  await db.schema.alterTable("videos").dropColumn("transcript_source").execute();
  await db.schema.alterTable("jobs").dropColumn("reuse_transcripts").execute();
}
