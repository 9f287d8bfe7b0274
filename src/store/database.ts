// Opens the store: a SQLite file by default, PostgreSQL when DATABASE_URL says so. Each database's
// specifics live in its own folder, store/sqlite/ and store/postgres/; what they share is store.ts.
import type { DatabaseTarget } from "../config.js";
import { openPostgres, type PostgresStore } from "./postgres/open-postgres.js";
import { openSqlite, type SqliteStore } from "./sqlite/open-sqlite.js";
import type { StoreOptions } from "./store.js";

// Most of src/ and test/ import the store's types from here, where they were first defined.
export type { Dialect, Store, StoreOptions } from "./store.js";

/**
 * A store as opened, with its database's own offers: the composition (app/) picks each database's
 * parts by `dialect`; features see only the shared `Store`.
 */
export type OpenedStore = SqliteStore | PostgresStore;

export function openStore(target: DatabaseTarget, options: StoreOptions = {}): OpenedStore {
  return target.kind === "sqlite"
    ? openSqlite(target.path, options)
    : openPostgres(target.url, options.maxConnections ?? 10, options.rememberAnswers ?? true, {
        namedStatements: options.namedStatements ?? true,
        combinedWrites: options.combinedWrites ?? true,
      });
}
