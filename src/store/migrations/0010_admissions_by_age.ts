// The order in which claims take waiting admissions on PostgreSQL, indexed.
import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * A claim on PostgreSQL takes the oldest waiting admissions first (`order by created_at limit 50 for
 * update skip locked`, pipeline/admissions.ts). With no index on `created_at` every claim read and
 * sorted the whole table: nothing while the workers keep up, but a backlog (workers down while
 * submissions came in) made each claim's cost grow with it. SQLite takes them in `rowid` order, which
 * is the table's own, and needs no index.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index job_admissions_by_age on job_admissions (created_at)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop index if exists job_admissions_by_age`.execute(db);
}
