// What every part of the service holds of the database, whichever it is: one Kysely type for both.
import type { Kysely } from "kysely";
import type { SqliteDriverName } from "../config.js";
import type { MemorySettings } from "../config/memory-settings.js";
import type { Database } from "./tables.js";

export type Dialect = "sqlite" | "postgres";

/**
 * What every feature may ask of the database, whichever it is; nothing here is for one database only.
 * Each database's store offers more to the composition (app/services.ts): store/sqlite/open-sqlite.ts,
 * store/postgres/open-postgres.ts.
 */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /**
   * Whether answers may be remembered between writes (VIDROWS_REMEMBER_ANSWERS, default on), checked
   * against each request's read stamp (store/stamped-cache.ts): on SQLite the whole file's, on
   * PostgreSQL the workspace's write version that the request's access statement reads.
   */
  readonly remembersAnswers: boolean;
  /**
   * Whether a transaction's writes that answer nothing go to the database as one statement
   * (combined-writes.ts): on PostgreSQL unless VIDROWS_COMBINED_WRITES=0; never on SQLite, which has
   * no round trip to save.
   */
  readonly combinesWrites: boolean;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL's pool size (default 10). */
  readonly maxConnections?: number;
  /** Let answers be remembered between writes (default true): see `Store.remembersAnswers`. */
  readonly rememberAnswers?: boolean;
  /**
   * SQLite: checkpoint in a thread of its own rather than inside commits (see sqlite/background-checkpoints.ts);
   * for long-running processes (default false).
   */
  readonly backgroundCheckpoints?: boolean;
  /**
   * SQLite: learn of commits from the write-ahead log's header in shared memory rather than a read
   * transaction (default false; see sqlite/log-header-stamps.ts).
   */
  readonly logHeaderStamps?: boolean;
  /** PostgreSQL: send prepared queries as named statements (default true; see postgres/named-statements.ts). */
  readonly namedStatements?: boolean;
  /** PostgreSQL: a transaction's writes that answer nothing as one statement (default true; see combined-writes.ts). */
  readonly combinedWrites?: boolean;
  /** SQLite: which driver (default: VIDROWS_SQLITE_DRIVER's, else the running Node.js's; see sqlite/sqlite-driver.ts). */
  readonly sqliteDriver?: SqliteDriverName | undefined;
  /**
   * SQLite: its page cache, memory-mapped reads and prepared statements per connection
   * (VIDROWS_SQLITE_CACHE_MB, VIDROWS_SQLITE_MMAP_MB, VIDROWS_SQLITE_STATEMENTS); the defaults if left out.
   */
  readonly sqliteMemory?:
    Pick<MemorySettings, "sqliteCacheMb" | "sqliteMmapMb" | "sqliteStatements"> | undefined;
  /** SQLite: told why the store is fenced off its shared-memory file, or null when it serves again. */
  readonly onSharedMemoryFence?: (reason: string | null) => void;
}
