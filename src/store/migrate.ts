// Versioned migrations, run at start and by `vidrows migrate`; safe when several processes start at once.
import {
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
  sql,
} from "kysely";
import { backoffDelay, noJitter } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";
import type { Store } from "./database.js";
import * as foundation from "./migrations/0001_foundation.js";
import * as jobs from "./migrations/0002_jobs.js";
import * as webhooks from "./migrations/0003_webhooks.js";
import * as searchIndexes from "./migrations/0004_search_indexes.js";
import * as partialQueueIndexes from "./migrations/0005_partial_queue_indexes.js";
import * as jobAdmissions from "./migrations/0006_job_admissions.js";
import * as uniqueWorkspaceNames from "./migrations/0007_unique_workspace_names.js";
import * as jobDataKeys from "./migrations/0008_job_data_keys.js";
import * as jobCancellation from "./migrations/0009_job_cancellation.js";
import * as admissionsByAge from "./migrations/0010_admissions_by_age.js";
import * as workspaceVersions from "./migrations/0011_workspace_versions.js";
import * as handoverClaims from "./migrations/0012_handover_claims.js";
import * as jobTranscription from "./migrations/0013_job_transcription.js";
import * as handoverReturns from "./migrations/0014_handover_returns.js";
import * as keptTranscripts from "./migrations/0015_kept_transcripts.js";
import * as uploads from "./migrations/0016_uploads.js";
import * as uploadChunks from "./migrations/0017_upload_chunks.js";
import type { Database } from "./tables.js";

// Listed in code rather than read from a folder, so the build output cannot miss one.
const migrations: Record<string, Migration> = {
  "0001_foundation": foundation,
  "0002_jobs": jobs,
  "0003_webhooks": webhooks,
  "0004_search_indexes": searchIndexes,
  "0005_partial_queue_indexes": partialQueueIndexes,
  "0006_job_admissions": jobAdmissions,
  "0007_unique_workspace_names": uniqueWorkspaceNames,
  "0008_job_data_keys": jobDataKeys,
  "0009_job_cancellation": jobCancellation,
  "0010_admissions_by_age": admissionsByAge,
  "0011_workspace_versions": workspaceVersions,
  "0012_handover_claims": handoverClaims,
  "0013_job_transcription": jobTranscription,
  "0014_handover_returns": handoverReturns,
  "0015_kept_transcripts": keptTranscripts,
  "0016_uploads": uploads,
  "0017_upload_chunks": uploadChunks,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export class MigrationError extends Error {}

function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** Runs the migrator on `db`; answers the names applied, or throws a MigrationError naming the one that failed. */
async function runMigrator(db: Kysely<Database>): Promise<string[]> {
  const { error, results }: MigrationResultSet = await new Migrator({ db, provider }).migrateToLatest();
  if (!error) return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  const failed = results?.find((r) => r.status === "Error")?.migrationName;
  throw new MigrationError(
    `Migration ${failed ?? "setup"} failed: ${(error as Error).message ?? String(error)}`,
    {
      cause: error,
    },
  );
}

/**
 * Kysely's SQLite adapter takes no lock and runs no transaction around migrations (it assumes one
 * process), so two processes starting together on an empty file would both see nothing applied and
 * both create the tables; the loser fails with "table already exists". Here the whole run happens
 * inside `BEGIN IMMEDIATE`, which takes SQLite's single write lock at once (waiting up to the
 * connection's busy_timeout): the second process waits, then reads the migration table afresh and
 * finds the work done. It also makes each run all-or-nothing, since SQLite's DDL is transactional.
 */
async function migrateSqlite(store: Store): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const applied = await runMigrator(conn);
          await sql`commit`.execute(conn);
          return applied;
        } catch (error) {
          await sql`rollback`.execute(conn).catch(() => {});
          throw error;
        }
      });
    } catch (error) {
      // busy_timeout already waited; a writer holding the lock longer than that is rare, so try again a few times.
      const busy = isSqliteBusy(error) || isSqliteBusy((error as { cause?: unknown }).cause);
      if (!busy || attempt >= 5) {
        if (error instanceof MigrationError) throw error;
        throw new MigrationError(`Migration setup failed: ${(error as Error).message ?? String(error)}`, {
          cause: error,
        });
      }
      await sleep(backoffDelay(attempt, { firstMs: 100, growth: "linear", jitter: noJitter }));
    }
  }
}

/**
 * Brings the database to the latest version. On PostgreSQL, Kysely runs the migrations in one
 * transaction under an advisory lock, so concurrent runs are serialised; SQLite takes its write lock.
 */
export async function migrateToLatest(store: Store): Promise<string[]> {
  return store.dialect === "sqlite" ? migrateSqlite(store) : runMigrator(store.db);
}
