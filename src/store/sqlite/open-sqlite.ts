// SQLite: one file in WAL mode, its pragmas, its read stamps, checkpoints in a thread, the -shm guard.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type CompiledQuery, Kysely, SqliteDialect } from "kysely";
import { ConfigError, defaultSqlitePath } from "../../config.js";
import { defaultMemorySettings } from "../../config/memory-settings.js";
import type { ReadStamp } from "../stamped-cache.js";
import type { Store, StoreOptions } from "../store.js";
import type { Database } from "../tables.js";
import { BackgroundCheckpoints } from "./background-checkpoints.js";
import { LogHeaderStamps } from "./log-header-stamps.js";
import { SharedMemoryGuard } from "./shared-memory-guard.js";
import { openSqliteConnection, type SqliteConnection, type SqliteDriverName } from "./sqlite-driver.js";
import { withStatementCache } from "./statement-cache.js";

/** The store on SQLite: what every database offers, and what a request reads of the file as it arrives. */
export interface SqliteStore extends Store {
  readonly dialect: "sqlite";
  /** The driver this store's connection runs on (sqlite-driver.ts). */
  readonly driver: SqliteDriverName;
  /** The file's read stamp for one request, read now, as the request arrives (see `SqliteReadStamp`). */
  readStampFromNow(): SqliteReadStamp;
  /**
   * Runs a read at once, without a promise, and answers its first row: for a lookup a request makes on
   * the way in (its rate-limit window's count), where a turn of the event loop would cost more than the
   * read. Refused, like any statement, while the store is fenced.
   */
  readNow<Row>(query: CompiledQuery<Row>): Row | undefined;
}

/**
 * SQLite's read stamp covers the whole file (scope ""): it moves whenever anything is committed, by this
 * connection or any other process. It is made of two readings. Other connections' commits
 * (`othersCommits`: the log's header in shared memory, log-header-stamps.ts, or with that switched off
 * `PRAGMA data_version`, which takes SQLite's read lock) are read
 * once, as the request arrives; the rate limiter's window count is read again only when they moved
 * (access/sqlite-access-check.ts). This connection's own writes (`total_changes()`) are added at every
 * `value()`, so a request sees its own writes at once. An answer is then as of a moment after the
 * request arrived, as any answer is.
 */
export interface SqliteReadStamp extends ReadStamp {
  readonly othersCommits: string;
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

export function openSqlite(path: string, options: StoreOptions): SqliteStore {
  if (path !== ":memory:") prepareFolder(path);
  const sqlite = openSqliteConnection(path, { driver: options.sqliteDriver });
  const cutOff = { transaction: false };
  const guard =
    path === ":memory:"
      ? undefined
      : new SharedMemoryGuard(`${path}-shm`, (reason) => {
          // A transaction cut off by the fence could not roll back (every statement was refused, its
          // ROLLBACK too); nothing can have begun since, so the one open now is that one: it goes first.
          if (reason === null && cutOff.transaction && sqlite.inTransaction) sqlite.exec("rollback");
          if (reason === null) cutOff.transaction = false;
          options.onSharedMemoryFence?.(reason);
        });
  // WAL lets readers go on while one writer writes; busy_timeout makes a second process wait for
  // the write lock instead of failing at once.
  sqlite.exec(`pragma busy_timeout = ${sqliteBusyTimeoutMs}`);
  toWriteAheadLog(sqlite);
  sqlite.exec("pragma synchronous = NORMAL");
  sqlite.exec("pragma foreign_keys = ON");
  // Deleted content is overwritten with zeros, in the page and in pages freed, rather than left in free
  // space: the handover deletes rows and submitted URLs from the file, not only from the table (contract
  // §8). The write-ahead log's older copies of those pages go when store/storage-eraser.ts cuts it back.
  sqlite.exec("pragma secure_delete = ON");
  // Temporary files in memory. The one that matters is the savepoint journal: grouped writes run each
  // submission in a savepoint (grouped-writes.ts), and a savepoint copies every page it first changes
  // into that journal. Past 64 KiB a transaction's journal went to a file, two system calls a page:
  // measured, a 10-video submission's statements took 82 µs with it on disk and 56 µs in memory. It
  // holds a copy of each page a savepoint first changes, a few MB at most for a full group, freed at the
  // commit. A sort larger than the page cache would stay in memory too; with 100,000 jobs the
  // benchmark's server peaked at 180-184 MB (212 MB in the last run without it).
  sqlite.exec("pragma temp_store = MEMORY");
  // Page cache and memory-mapped reads: fewer system calls on every query. Both are sized by settings
  // (docs/operations.md, "Memory budget"): the page cache is the process's own memory and fills as the
  // file grows, up to its size (at 64 MiB a soak's RSS still grew after ten minutes); mapped pages are
  // the kernel's file cache, counted in RSS but given back when the machine is short of memory.
  const memory = { ...defaultMemorySettings, ...options.sqliteMemory };
  sqlite.exec(`pragma cache_size = ${-memory.sqliteCacheMb * 1024}`);
  sqlite.exec(`pragma mmap_size = ${memory.sqliteMmapMb * 2 ** 20}`);
  // Checkpoints (copying the WAL back into the database file) at SQLite's usual 4 MB of WAL, unless a
  // thread does them (below). A checkpoint run by SQLite itself runs inside the commit that crosses the
  // mark and holds up every request meanwhile: at 40 MB, POST /v1's p99 under load was 70-80 ms against
  // 28 ms at 4 MB. The WAL file is cut back to 64 MB after a checkpoint.
  sqlite.exec(`pragma wal_autocheckpoint = ${autocheckpointPages}`);
  sqlite.exec("pragma journal_size_limit = 67108864");
  // A serving process checkpoints in a thread instead, so that no commit stalls the event loop.
  const checkpoints =
    options.backgroundCheckpoints && path !== ":memory:" ? inBackground(sqlite, path) : undefined;
  const sqliteDatabase = withStatementCache(sqlite, guard, cutOff, memory.sqliteStatements);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqliteDatabase }) });
  // data_version moves with commits of other connections, total_changes() with this one's writes.
  const dataVersion = sqlite.pluck("pragma data_version");
  const headerStamps =
    options.logHeaderStamps && path !== ":memory:"
      ? new LogHeaderStamps(`${path}-shm`, dataVersion)
      : undefined;
  const othersCommits = headerStamps ? () => headerStamps.now() : dataVersion;
  const ownChanges = sqlite.pluck("select total_changes()");
  // While fenced, a stamp that matches nothing: remembered answers are not served, and the queries
  // that would replace them are refused (503) without SQLite touching its shared memory. The stamp goes
  // by the guard's last look (its timer looks every 250 ms) instead of looking again: a remembered
  // answer never touches the shared memory, and every statement still looks first (statement-cache.ts).
  // Looking here cost a `stat` and an `access` a millisecond under load: about 2% of a remembered read's CPU.
  let fencedStamps = 0;
  const fencedStamp = () => (guard?.fencedBecause ? `fenced:${++fencedStamps}` : undefined);
  const readStampFromNow = (): SqliteReadStamp => {
    const others = fencedStamp() ?? String(othersCommits());
    const value = () => fencedStamp() ?? `${others}:${ownChanges()}`;
    return { scope: "", value, othersCommits: others };
  };
  const readNow = <Row>(query: CompiledQuery<Row>) =>
    sqliteDatabase.prepare(query.sql).all(query.parameters)[0] as Row | undefined;
  const close = async () => {
    // The thread first: closing the last connection checkpoints what is left, as SQLite always does.
    await checkpoints?.stop();
    await db.destroy();
    headerStamps?.close();
  };
  return {
    db,
    dialect: "sqlite",
    driver: sqlite.driver,
    remembersAnswers: options.rememberAnswers ?? true,
    combinesWrites: false,
    readStampFromNow,
    readNow,
    close,
  };
}

/** SQLite's own checkpoint threshold, in pages of the log (4 MB), where no thread checkpoints. */
const autocheckpointPages = 1000;

/**
 * Hands `sqlite`'s checkpoints to a thread (background-checkpoints.ts). Should the thread fail (it
 * could not open the file, or runs from sources without a build), the connection checkpoints by
 * itself again, as without it.
 */
function inBackground(sqlite: SqliteConnection, path: string): BackgroundCheckpoints {
  sqlite.exec("pragma wal_autocheckpoint = 0");
  const checkpoints = new BackgroundCheckpoints(path, sqlite.driver);
  checkpoints.onFailure(() => {
    if (sqlite.isOpen) sqlite.exec(`pragma wal_autocheckpoint = ${autocheckpointPages}`);
  });
  return checkpoints;
}

/**
 * Turns the file to WAL. On a fresh file that another process is opening at the same moment, SQLite can
 * refuse the change at once ("database is locked") without waiting for busy_timeout: two `vidrows
 * migrate` at once on Node.js 24 failed 3 times in 8. The change is tried again, 20 ms apart, for a second.
 */
function toWriteAheadLog(sqlite: SqliteConnection): void {
  for (let attempt = 1; ; attempt++) {
    try {
      sqlite.exec("pragma journal_mode = WAL");
      return;
    } catch (error) {
      const locked = /database is locked|SQLITE_BUSY/i.test(
        `${(error as Error).message} ${(error as { code?: string }).code ?? ""}`,
      );
      if (!locked || attempt >= 50) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}
