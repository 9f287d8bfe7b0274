// What every part of the service holds of the database, whichever it is: one Kysely type for both.
import type { CompiledQuery, Kysely } from "kysely";
import type { Database } from "./tables.js";

export type Dialect = "sqlite" | "postgres";

/** Reads the store's write stamp (see `Store.writeStamp`). */
export type WriteStamp = () => string;

/** One request's write stamp (see `Store.writeStampFromNow`), with the reading of others' commits it keeps. */
export interface RequestWriteStamp {
  (): string;
  /** Other connections' commits as the request arrived (see `Store.commitsByOthers`). */
  readonly commitsByOthers: string;
}

export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /**
   * Whether answers may be remembered between writes (VIDROWS_REMEMBER_ANSWERS, default on): on SQLite
   * against `writeStamp`, on PostgreSQL against the workspace's write version that the request's
   * access statement reads (migration 0011, access/postgres-access-check.ts).
   */
  readonly remembersAnswers: boolean;
  /**
   * Whether a transaction's writes that answer nothing go to the database as one statement
   * (combined-writes.ts): on PostgreSQL unless VIDROWS_COMBINED_WRITES=0; never on SQLite, which has
   * no round trip to save.
   */
  readonly combinesWrites: boolean;
  /**
   * SQLite only: a value that changes whenever anything is committed to the database, by this
   * connection or any other (another process's included). While it stays the same, whatever was
   * read from the database is still what it holds, so a cache checked against it is never stale.
   * PostgreSQL has no such value for the whole database; it keeps one per workspace instead.
   */
  readonly writeStamp?: WriteStamp;
  /**
   * SQLite only: a write stamp for the lookups of one request. Learning of other processes' commits
   * takes SQLite's read lock (a few microseconds), so this does it once, now, when the request
   * arrives, and its stamp reuses that reading; this connection's own writes it still sees at once.
   * An answer is then as of a moment after the request arrived, as any answer is.
   */
  readonly writeStampFromNow?: () => RequestWriteStamp;
  /**
   * SQLite only: a value that moves whenever another connection (another process) commits, and not
   * with this connection's own writes (`PRAGMA data_version`; it takes SQLite's read lock, about a
   * microsecond). The rate limiter reads its window's count again only when it moved.
   */
  readonly commitsByOthers?: () => string;
  /**
   * SQLite only: runs a read at once, without a promise, and answers its first row: for a lookup a
   * request makes on the way in (the rate limit's window), where a turn of the event loop would cost
   * more than the read. Refused, like any statement, while the store is fenced.
   */
  readonly readNow?: <Row>(query: CompiledQuery<Row>) => Row | undefined;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL's pool size (default 10). */
  readonly maxConnections?: number;
  /**
   * Let answers be remembered between writes (default true): on SQLite the store offers its write
   * stamp, on PostgreSQL the access statement reads the workspace's write version.
   */
  readonly writeStamp?: boolean;
  /**
   * SQLite: checkpoint in a thread of its own rather than inside commits (see sqlite/background-checkpoints.ts);
   * for long-running processes (default false).
   */
  readonly backgroundCheckpoints?: boolean;
  /** PostgreSQL: send prepared queries as named statements (default true; see postgres/named-statements.ts). */
  readonly namedStatements?: boolean;
  /** PostgreSQL: a transaction's writes that answer nothing as one statement (default true; see combined-writes.ts). */
  readonly combinedWrites?: boolean;
  /** SQLite: told why the store is fenced off its shared-memory file, or null when it serves again. */
  readonly onSharedMemoryFence?: (reason: string | null) => void;
}
