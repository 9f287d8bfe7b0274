// Indexes that let PostgreSQL answer the list's prefix search (`search=`) without reading every video.
import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * The search matches the start of a job id, a video id or a platform video id with LIKE 'prefix%'.
 * PostgreSQL uses a plain b-tree index for that only under the C collation; databases are usually
 * created with another (en_US.UTF-8, C.UTF-8), and then each search read every video of the table
 * (measured: 59 ms at 300,000 videos, 0.3 ms with these). `text_pattern_ops` indexes compare byte by
 * byte whatever the collation. SQLite needs nothing: its GLOB uses the existing indexes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index jobs_by_workspace_id_prefix on jobs (workspace_id, id text_pattern_ops)`.execute(db);
  await sql`create index videos_by_workspace_id_prefix on videos (workspace_id, id text_pattern_ops)`.execute(
    db,
  );
  await sql`create index videos_by_workspace_platform_id_prefix on videos (workspace_id, platform_video_id text_pattern_ops)`.execute(
    db,
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const index of [
    "videos_by_workspace_platform_id_prefix",
    "videos_by_workspace_id_prefix",
    "jobs_by_workspace_id_prefix",
  ]) {
    await sql`drop index if exists ${sql.ref(index)}`.execute(db);
  }
}
