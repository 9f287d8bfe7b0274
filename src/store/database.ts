// Opens the store: a SQLite file by default, PostgreSQL when DATABASE_URL says so. Each database's
// specifics live in its own folder, store/sqlite/ and store/postgres/; what they share is store.ts.
import type { DatabaseTarget } from "../config.js";
import { openPostgres } from "./postgres/open-postgres.js";
import { openSqlite } from "./sqlite/open-sqlite.js";
import type { Store, StoreOptions } from "./store.js";

// Most of src/ and test/ import the store's types from here, where they were first defined.
export type { Dialect, RequestWriteStamp, Store, StoreOptions, WriteStamp } from "./store.js";

export function openStore(target: DatabaseTarget, options: StoreOptions = {}): Store {
  return target.kind === "sqlite"
    ? openSqlite(target.path, options)
    : openPostgres(target.url, options.maxConnections ?? 10, options.writeStamp ?? true, {
        namedStatements: options.namedStatements ?? true,
        combinedWrites: options.combinedWrites ?? true,
      });
}
