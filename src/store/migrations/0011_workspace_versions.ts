// Each workspace's write version on PostgreSQL: the number a remembered answer of that workspace is checked against.
import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * On PostgreSQL a remembered answer (app/remembered-reads.ts) is checked against its workspace's write
 * version, read by the one statement every request runs (access/postgres-access-check.ts). Triggers
 * move the version with every committed change to what a remembered read answers, whatever code made
 * it, so no write path can forget to: the workspace row (counters, balance, plan, hard cap), its jobs
 * (submission, claims' counts, settlement, handover, cancellation), its admission rows (the search finds
 * a waiting job by them, and an admitted one by its videos), its keys (revocation, `last_used_at`), and
 * its usage counters. Videos have no trigger: each change a read shows (admitted, started, settled,
 * handed over) comes with a change of its job or of its admission row in the same transaction, and
 * lease renewals, the most frequent video writes, show in no answer.
 *
 * Two triggers per table. The first, after each row, notes the workspace in a setting local to the
 * transaction (a savepoint rolled back takes its notes with it). The second is deferred to the
 * commit: its first firing moves the version of every workspace noted, in id order, and clears the
 * notes, so the ones after it do nothing. The version rows are thus locked only at the very end of a
 * transaction, and always in the same order: moving them as each row changed would lock a version in
 * the middle of a claim or a settlement, between its job rows and its workspace rows, and two of those
 * would wait on each other in a circle (a deadlock). A transaction locks a version row for no longer
 * than its commit; writes of one workspace already take turns on the workspace row.
 *
 * On SQLite the table exists for one schema but stays empty: there the whole database's write stamp
 * (store/sqlite/open-sqlite.ts) does this job, since SQLite has one writer at a time.
 */
const watchedTables: ReadonlyArray<{ table: string; workspaceColumn: "id" | "workspace_id" }> = [
  { table: "workspaces", workspaceColumn: "id" },
  { table: "jobs", workspaceColumn: "workspace_id" },
  { table: "job_admissions", workspaceColumn: "workspace_id" },
  { table: "api_keys", workspaceColumn: "workspace_id" },
  { table: "failure_counts", workspaceColumn: "workspace_id" },
  { table: "daily_credits", workspaceColumn: "workspace_id" },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("workspace_versions")
    .addColumn("workspace_id", "text", (c) => c.primaryKey())
    .addColumn("version", "bigint", (c) => c.notNull())
    .execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  // The workspace of the changed row (TG_ARGV[0] names its column), added to the transaction's notes
  // once. Each IF branch names one column, since PL/pgSQL looks a field up only when it runs the line.
  await sql`
    create function vidrows_note_workspace_write() returns trigger language plpgsql as $$
    declare
      workspace text;
      noted text := coalesce(current_setting('vidrows.written_workspaces', true), '');
    begin
      if TG_OP = 'DELETE' then
        if TG_ARGV[0] = 'id' then workspace := OLD.id; else workspace := OLD.workspace_id; end if;
      else
        if TG_ARGV[0] = 'id' then workspace := NEW.id; else workspace := NEW.workspace_id; end if;
      end if;
      if position(' ' || workspace || ' ' in noted) = 0 then
        perform set_config('vidrows.written_workspaces',
          case when noted = '' then ' ' else noted end || workspace || ' ', true);
      end if;
      return null;
    end $$`.execute(db);

  // At the commit: the noted workspaces' versions moved, in id order; a workspace without a row yet
  // (version 0 as read) gets one at 1.
  await sql`
    create function vidrows_move_workspace_versions() returns trigger language plpgsql as $$
    declare
      noted text := current_setting('vidrows.written_workspaces', true);
    begin
      if noted is null or noted = '' then return null; end if;
      perform set_config('vidrows.written_workspaces', '', true);
      insert into workspace_versions (workspace_id, version)
        select workspace, 1 from unnest(string_to_array(btrim(noted), ' ')) as workspace order by workspace
        on conflict (workspace_id) do update set version = workspace_versions.version + 1;
      return null;
    end $$`.execute(db);

  for (const { table, workspaceColumn } of watchedTables) {
    await sql`
      create trigger ${sql.raw(`${table}_note_write`)}
      after insert or update or delete on ${sql.table(table)}
      for each row execute function vidrows_note_workspace_write(${sql.lit(workspaceColumn)})`.execute(db);
    await sql`
      create constraint trigger ${sql.raw(`${table}_move_version`)}
      after insert or update or delete on ${sql.table(table)}
      deferrable initially deferred
      for each row execute function vidrows_move_workspace_versions()`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const { table } of watchedTables) {
      await sql`drop trigger ${sql.raw(`${table}_note_write`)} on ${sql.table(table)}`.execute(db);
      await sql`drop trigger ${sql.raw(`${table}_move_version`)} on ${sql.table(table)}`.execute(db);
    }
    await sql`drop function vidrows_note_workspace_write()`.execute(db);
    await sql`drop function vidrows_move_workspace_versions()`.execute(db);
  }
  await db.schema.dropTable("workspace_versions").execute();
}
