// The SQLite connection behind a cache of prepared statements, refused while fenced off the shared memory.
import type { SqliteDatabase, SqliteStatement } from "kysely";
import { fencedStoreError, type SharedMemoryGuard } from "./shared-memory-guard.js";
import type { SqliteConnection } from "./sqlite-driver.js";

// On a full disk or an I/O error SQLite may end the transaction itself (at a statement or at COMMIT).
// Kysely then sends ROLLBACK, which fails with "cannot rollback - no transaction is active", and that
// error replaces the one that mattered: SQLITE_FULL became an unexplained 500. A rollback with nothing
// to roll back is a no-op here, so the caller sees the real failure.
const noRows = { changes: 0, lastInsertRowid: 0 } as const;
function rollbackIfOpen(sqlite: SqliteConnection): SqliteStatement {
  return {
    reader: false,
    all: () => [],
    iterate: () => [][Symbol.iterator](),
    run: () => {
      if (sqlite.inTransaction) sqlite.exec("rollback");
      return noRows;
    },
  };
}

/**
 * The SQLite connection behind a cache of prepared statements. Kysely asks for a fresh statement on every
 * query, and preparing costs about as much as running a small one; the same SQL text is prepared once.
 * Bounded (VIDROWS_SQLITE_STATEMENTS, `capacity`), because queries with IN lists of varying length
 * each have their own text; a statement takes about 10 KB of SQLite's memory.
 */
export function withStatementCache(
  sqlite: SqliteConnection,
  guard: SharedMemoryGuard | undefined,
  cutOff: { transaction: boolean },
  capacity = 1000,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close() {
      guard?.stop();
      // Closing runs a checkpoint, which touches the shared memory: a fenced process leaves it be.
      if (!guard?.fencedBecause) sqlite.close();
    },
    prepare(text: string) {
      const fenced = guard?.fencedNow();
      if (fenced) {
        // Its own ROLLBACK will be refused too: the fence's lifting rolls it back (see openSqlite).
        if (sqlite.inTransaction) cutOff.transaction = true;
        throw fencedStoreError(fenced);
      }
      if (text === "rollback") return rollbackIfOpen(sqlite);
      let statement = statements.get(text);
      if (statement) {
        // Move it to the young end of the map, which keeps insertion order: least recently used first.
        statements.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}
