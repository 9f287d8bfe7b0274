// What the store holds of a SQLite connection, whichever driver opened it (sqlite-driver.ts chooses).
import type { SqliteStatement } from "kysely";
import type { SqliteDriverName } from "../../config/database-settings.js";

export interface SqliteOpenOptions {
  /** Fail rather than create a new, empty file (the checkpoint thread opens the store's own file). */
  readonly fileMustExist?: boolean;
  readonly readOnly?: boolean;
  /** Which driver; unset, VIDROWS_SQLITE_DRIVER's, or else the running Node.js's (`chosenSqliteDriver`). */
  readonly driver?: SqliteDriverName;
}

/** One connection to a SQLite file, the same whichever driver holds it. */
export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  /** A statement in the shape Kysely's SQLite dialect runs (better-sqlite3's). */
  prepare(sql: string): SqliteStatement;
  /** Runs SQL whose answer is not wanted, such as a pragma that sets something. */
  exec(sql: string): void;
  /** Prepares `sql` once; each call of the answer runs it and gives the first column of its first row. */
  pluck(sql: string): () => unknown;
  readonly inTransaction: boolean;
  readonly isOpen: boolean;
  close(): void;
}
