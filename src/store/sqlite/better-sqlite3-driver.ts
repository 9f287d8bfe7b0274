// better-sqlite3, the native SQLite module, as the store's SQLite connection where Node.js has no node:sqlite.
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { SqliteConnection, SqliteOpenOptions } from "./sqlite-connection.js";

let loaded: typeof BetterSqlite3 | undefined;

/**
 * Loaded only when chosen, never at import: on Node.js 24.19 and later its statements abort the whole
 * process when collected (`Assertion failed: (env) != nullptr`), so there it must never be loaded at
 * all. It is an optional dependency: where its native build failed, this says how to get a driver.
 */
function betterSqlite3(): typeof BetterSqlite3 {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  } catch (error) {
    throw new Error(
      `Node.js ${process.versions.node} has no node:sqlite, and better-sqlite3 cannot be loaded (${(error as Error).message}). ` +
        "Use Node.js 22.16 or later, or reinstall better-sqlite3 (`npm rebuild better-sqlite3`; its build needs python3, make and a C++ compiler).",
      { cause: error },
    );
  }
  return loaded;
}

/** Opens `path` with better-sqlite3, whose statements already have the shape Kysely's dialect runs. */
export function openBetterSqlite3(path: string, options: SqliteOpenOptions): SqliteConnection {
  const Database = betterSqlite3();
  const database = new Database(path, { readonly: options.readOnly ?? false });
  return {
    driver: "better-sqlite3",
    prepare: (sql) => database.prepare(sql),
    exec: (sql) => void database.exec(sql),
    pluck(sql) {
      const statement = database.prepare(sql).pluck();
      return () => statement.get();
    },
    get inTransaction() {
      return database.inTransaction;
    },
    get isOpen() {
      return database.open;
    },
    close: () => void database.close(),
  };
}
