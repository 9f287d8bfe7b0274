// Opens the store: a SQLite file by default, PostgreSQL when DATABASE_URL says so. One Kysely type for both.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { type CompiledQuery, Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from "kysely";
import pg from "pg";
import { ConfigError, type DatabaseTarget, defaultSqlitePath } from "../config.js";
import { BackgroundCheckpoints } from "./background-checkpoints.js";
import { NamingClient } from "./named-statements.js";
import { fencedStoreError, SharedMemoryGuard } from "./shared-memory-guard.js";
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
   * access statement reads (migration 0011, access/postgres-key-check.ts).
   */
  readonly remembersAnswers: boolean;
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

// PostgreSQL's bigint (int8) and numeric arrive as strings by default; every bigint here is a time in
// milliseconds or a credit count, far inside the range a JavaScript number holds exactly.
const int8Oid = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === int8Oid && format !== "binary") return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

// On a full disk or an I/O error SQLite may end the transaction itself (at a statement or at COMMIT).
// Kysely then sends ROLLBACK, which fails with "cannot rollback - no transaction is active", and that
// error replaces the one that mattered: SQLITE_FULL became an unexplained 500. A rollback with nothing
// to roll back is a no-op here, so the caller sees the real failure.
const noRows = { changes: 0, lastInsertRowid: 0 } as const;
function rollbackIfOpen(sqlite: BetterSqlite3.Database) {
  return {
    reader: false,
    all: () => [],
    iterate: () => [][Symbol.iterator](),
    run: () => (sqlite.inTransaction ? sqlite.prepare("rollback").run() : noRows),
  };
}

/**
 * better-sqlite3 behind a cache of prepared statements. Kysely asks for a fresh statement on every
 * query, and preparing costs about as much as running a small one; the same SQL text is prepared once.
 * Bounded, because queries with IN lists of varying length each have their own text.
 */
function withStatementCache(
  sqlite: BetterSqlite3.Database,
  guard: SharedMemoryGuard | undefined,
  cutOff: { transaction: boolean },
  capacity = 1000,
): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
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

/** How long a SQLite statement waits for another connection's lock before failing SQLITE_BUSY. */
export const sqliteBusyTimeoutMs = 5000;

/**
 * The default file's folder (`./data`) is made on the first start, as the README's quick start promises; any other
 * folder must exist. Making it would hide a mistyped path (a fresh, empty database in the wrong place)
 * and litter the disk with folders.
 */
function prepareFolder(path: string): void {
  const folder = dirname(path);
  if (resolve(path) === resolve(defaultSqlitePath)) {
    mkdirSync(folder, { recursive: true });
    return;
  }
  if (!existsSync(folder)) {
    throw new ConfigError(
      `DATABASE_URL is "${path}", but its folder "${folder}" does not exist.`,
      `Create the folder (\`mkdir -p ${folder}\`) or correct the path, then start again.`,
    );
  }
}

function openSqlite(path: string, options: StoreOptions): Store {
  const offerWriteStamp = options.writeStamp ?? true;
  if (path !== ":memory:") prepareFolder(path);
  const sqlite = new BetterSqlite3(path);
  const cutOff = { transaction: false };
  const guard =
    path === ":memory:"
      ? undefined
      : new SharedMemoryGuard(`${path}-shm`, (reason) => {
          // A transaction cut off by the fence could not roll back (every statement was refused, its
          // ROLLBACK too); nothing can have begun since, so the one open now is that one: it goes first.
          if (reason === null && cutOff.transaction && sqlite.inTransaction) sqlite.prepare("rollback").run();
          if (reason === null) cutOff.transaction = false;
          options.onSharedMemoryFence?.(reason);
        });
  // WAL lets readers go on while one writer writes; busy_timeout makes a second process wait for
  // the write lock instead of failing at once.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${sqliteBusyTimeoutMs}`);
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Deleted content is overwritten with zeros, in the page and in pages freed, rather than left in free
  // space: the handover deletes rows and submitted URLs from the file, not only from the table (contract
  // §8). The write-ahead log's older copies of those pages go when store/storage-eraser.ts cuts it back.
  sqlite.pragma("secure_delete = ON");
  // Temporary files in memory. The one that matters is the savepoint journal: grouped writes run each
  // submission in a savepoint (grouped-writes.ts), and a savepoint copies every page it first changes
  // into that journal. Past 64 KiB a transaction's journal went to a file, two system calls a page:
  // measured, a 10-video submission's statements took 82 µs with it on disk and 56 µs in memory. It
  // holds a copy of each page a savepoint first changes, a few MB at most for a full group, freed at the
  // commit. A sort larger than the page cache would stay in memory too; with 100,000 jobs the
  // benchmark's server peaked at 180-184 MB (212 MB in the last run without it).
  sqlite.pragma("temp_store = MEMORY");
  // 64 MiB of page cache and memory-mapped reads: fewer system calls on every query.
  sqlite.pragma("cache_size = -65536");
  sqlite.pragma("mmap_size = 268435456");
  // Checkpoints (copying the WAL back into the database file) at SQLite's usual 4 MB of WAL, unless a
  // thread does them (below). A checkpoint run by SQLite itself runs inside the commit that crosses the
  // mark and holds up every request meanwhile: at 40 MB, POST /v1's p99 under load was 70-80 ms against
  // 28 ms at 4 MB. The WAL file is cut back to 64 MB after a checkpoint.
  sqlite.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
  sqlite.pragma("journal_size_limit = 67108864");
  // A serving process checkpoints in a thread instead, so that no commit stalls the event loop.
  const checkpoints =
    options.backgroundCheckpoints && path !== ":memory:" ? inBackground(sqlite, path) : undefined;
  const sqliteDatabase = withStatementCache(sqlite, guard, cutOff);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqliteDatabase }) });
  // data_version moves with commits of other connections, total_changes() with this one's writes.
  const othersCommits = sqlite.prepare("pragma data_version").pluck();
  const ownChanges = sqlite.prepare("select total_changes()").pluck();
  // While fenced, a stamp that matches nothing: remembered answers are not served, and the queries
  // that would replace them are refused (503) without SQLite touching its shared memory.
  let fencedStamps = 0;
  const fencedStamp = () => (guard?.fencedNow() ? `fenced:${++fencedStamps}` : undefined);
  const commitsByOthers = () => fencedStamp() ?? String(othersCommits.get());
  const readNow = <Row>(query: CompiledQuery<Row>) =>
    sqliteDatabase.prepare(query.sql).all(query.parameters)[0] as Row | undefined;
  const close = async () => {
    // The thread first: closing the last connection checkpoints what is left, as SQLite always does.
    await checkpoints?.stop();
    await db.destroy();
  };
  const common = { db, dialect: "sqlite", readNow, commitsByOthers, close } as const;
  if (!offerWriteStamp) return { ...common, remembersAnswers: false };
  const stamp = () => fencedStamp() ?? `${othersCommits.get()}:${ownChanges.get()}`;
  return {
    ...common,
    remembersAnswers: true,
    writeStamp: stamp,
    writeStampFromNow: () => {
      const others = commitsByOthers();
      if (guard?.fencedNow()) return Object.assign(() => stamp(), { commitsByOthers: others });
      const fromNow = () => (guard?.fencedNow() ? stamp() : `${others}:${ownChanges.get()}`);
      return Object.assign(fromNow, { commitsByOthers: others });
    },
  };
}

/** SQLite's own checkpoint threshold, in pages of the log (4 MB), where no thread checkpoints. */
const autocheckpointPages = 1000;

/**
 * Hands `sqlite`'s checkpoints to a thread (background-checkpoints.ts). Should the thread fail (it
 * could not open the file, or runs from sources without a build), the connection checkpoints by
 * itself again, as without it.
 */
function inBackground(sqlite: BetterSqlite3.Database, path: string): BackgroundCheckpoints {
  sqlite.pragma("wal_autocheckpoint = 0");
  const checkpoints = new BackgroundCheckpoints(path);
  checkpoints.onFailure(() => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
  });
  return checkpoints;
}

function openPostgres(url: string, maxConnections: number, remembersAnswers: boolean): Store {
  // NamingClient sends prepared queries as named statements (see named-statements.ts).
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    types: pgTypes,
    Client: NamingClient,
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that would
  // crash the process. The next query reports the outage to its caller instead.
  pool.on("error", () => {});
  // The same for a client in use but between two queries (a transaction's, say) when the server shuts
  // down: measured, a worker died of that unhandled 'error' when PostgreSQL stopped under load. The
  // client's next query fails instead (503), and the pool discards it when it comes back.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: "postgres", remembersAnswers, close: () => db.destroy() };
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
   * SQLite: checkpoint in a thread of its own rather than inside commits (see background-checkpoints.ts);
   * for long-running processes (default false).
   */
  readonly backgroundCheckpoints?: boolean;
  /** SQLite: told why the store is fenced off its shared-memory file, or null when it serves again. */
  readonly onSharedMemoryFence?: (reason: string | null) => void;
}

export function openStore(target: DatabaseTarget, options: StoreOptions = {}): Store {
  return target.kind === "sqlite"
    ? openSqlite(target.path, options)
    : openPostgres(target.url, options.maxConnections ?? 10, options.writeStamp ?? true);
}
