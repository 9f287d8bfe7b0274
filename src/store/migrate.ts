// Versioned migrations, run at start and by `vidrows migrate`; safe when several processes start at once.
import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from "kysely";
import type { Store } from "./database.js";
import * as foundation from "./migrations/0001_foundation.js";

// Listed in code rather than read from a folder, so the build output cannot miss one.
const migrations: Record<string, Migration> = {
  "0001_foundation": foundation,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export class MigrationError extends Error {}

function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/**
 * Brings the database to the latest version. On PostgreSQL, Kysely serialises concurrent runs with
 * an advisory lock. SQLite has no such lock: two processes can both start a migration transaction,
 * and the loser gets SQLITE_BUSY; it then tries again and finds the work already done.
 */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrator = new Migrator({ db: store.db, provider });
  for (let attempt = 1; ; attempt++) {
    const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
    if (store.dialect === "sqlite" && isSqliteBusy(error) && attempt < 20) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new MigrationError(
      `Migration ${failed ?? "setup"} failed: ${(error as Error).message ?? String(error)}`,
    );
  }
}
