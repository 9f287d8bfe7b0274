// Each job's data key, in a small table of its own: deleting a key at the handover deletes the job's sealed rows and URLs.
import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * See store/sealed-values.ts. On PostgreSQL the keys are hash-partitioned by job id, so that the
 * rewrite after a handover (VACUUM FULL, which is what removes a deleted key from the files) copies
 * and locks one sixteenth of the live keys, a few milliseconds even with a backlog of 100,000 unread
 * jobs, while submissions and handovers of the other partitions go on. The key column keeps no
 * planner statistics: ANALYZE would otherwise copy sample keys into pg_statistic, where deleting
 * the key would not reach them. On SQLite the table exists for one schema but stays empty: there a
 * deleted value is zeroed in place (secure_delete) and the write-ahead log cut back after handovers.
 *
 * Jobs submitted before this migration have no key; their values stay plaintext and are read as such.
 */
export const keyPartitions = 16;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema
      .createTable("job_keys")
      .addColumn("job_id", "text", (c) => c.primaryKey())
      .addColumn("data_key", "blob", (c) => c.notNull())
      .execute();
    return;
  }
  await sql`create table job_keys (job_id text primary key, data_key bytea not null) partition by hash (job_id)`.execute(
    db,
  );
  for (let remainder = 0; remainder < keyPartitions; remainder++) {
    await sql`create table ${sql.raw(`job_keys_${remainder}`)} partition of job_keys
      for values with (modulus ${sql.lit(keyPartitions)}, remainder ${sql.lit(remainder)})`.execute(db);
  }
  // After the partitions exist: ALTER TABLE reaches every partition.
  await sql`alter table job_keys alter column data_key set statistics 0`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_keys").execute();
}
