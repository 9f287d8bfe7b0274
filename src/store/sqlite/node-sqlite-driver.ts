// node:sqlite, the SQLite built into Node.js (22.16 and later), as the store's SQLite connection.
import type { SqliteStatement } from "kysely";
import type { SqliteConnection, SqliteOpenOptions } from "./sqlite-connection.js";
import { sqliteCodeName } from "./sqlite-result-codes.js";

// The part of node:sqlite the store uses (the project's Node.js types are those of Node.js 20, which has none).
interface NodeSqliteColumn {
  readonly name: string;
  /** The declared type of the table column the value comes from; null for an expression. */
  readonly type: string | null;
}
interface NodeSqliteStatement {
  all(...parameters: unknown[]): unknown[];
  get(...parameters: unknown[]): unknown;
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  columns(): NodeSqliteColumn[];
  setReturnArrays(enabled: boolean): void;
}
interface NodeSqliteDatabase {
  prepare(sql: string): NodeSqliteStatement;
  exec(sql: string): void;
  close(): void;
  readonly isOpen: boolean;
  readonly isTransaction: boolean;
}
interface NodeSqliteModule {
  readonly DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabase;
  readonly StatementSync: { readonly prototype: object };
}

const experimentalWarning = "SQLite is an experimental feature";

/**
 * Loads node:sqlite without the one warning Node.js 22 prints as it does ("ExperimentalWarning: SQLite is
 * an experimental feature..."), which a newcomer would read as something wrong at `npm start`; every
 * other warning goes through as before.
 */
function loadQuietly(): NodeSqliteModule | undefined {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const message = typeof warning === "string" ? warning : warning.message;
    const option = rest[0] as string | { type?: string } | undefined;
    const type = typeof option === "string" ? option : (option?.type ?? (warning as Error).name);
    if (type === "ExperimentalWarning" && message.startsWith(experimentalWarning)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // getBuiltinModule answers undefined where Node.js has no such module (Node.js 20; 22 before 22.13
    // without a flag) and is itself missing before Node.js 20.16.
    return process.getBuiltinModule?.("node:sqlite") as NodeSqliteModule | undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

let loaded: NodeSqliteModule | null | undefined;

/**
 * node:sqlite where the running Node.js has everything of it the store uses (statements' `columns()`
 * and `setReturnArrays()`, the database's `isTransaction`: Node.js 22.16, 23.11 and later), else null.
 */
export function nodeSqlite(): NodeSqliteModule | null {
  if (loaded === undefined) {
    const found = loadQuietly();
    const statement = found?.StatementSync.prototype as Partial<NodeSqliteStatement> | undefined;
    const complete =
      typeof statement?.columns === "function" && typeof statement.setReturnArrays === "function";
    loaded = found && complete ? found : null;
  }
  return loaded;
}

/**
 * node:sqlite's errors carry SQLite's extended result code as a number (`errcode`) under the code
 * ERR_SQLITE_ERROR; the store reads codes by name (SQLITE_BUSY, SQLITE_CONSTRAINT_UNIQUE...), as
 * better-sqlite3 gives them. The error is kept, its code replaced.
 */
function withCodeName(error: unknown): unknown {
  const found = error as { code?: unknown; errcode?: unknown } | null;
  if (found?.code === "ERR_SQLITE_ERROR" && typeof found.errcode === "number")
    found.code = sqliteCodeName(found.errcode);
  return error;
}

/** node:sqlite answers blobs as Uint8Array; the store's blob columns are Buffers, as better-sqlite3 gives. */
function withBuffers(rows: unknown[], columns: readonly string[]): unknown[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const column of columns) {
      const value = row[column];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value))
        row[column] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows;
}

/**
 * A statement as Kysely's SQLite dialect runs one (better-sqlite3's shape): `reader` when it answers
 * rows, the parameters as one array. Which columns may hold a blob is known once, from the statement:
 * a table column declared BLOB, or an expression.
 */
function kyselyStatement(statement: NodeSqliteStatement): SqliteStatement {
  const columns = statement.columns();
  const mayHoldBlobs = columns
    .filter((column) => column.type === null || /blob/i.test(column.type))
    .map((column) => column.name);
  return {
    reader: columns.length > 0,
    all(parameters) {
      try {
        const rows = statement.all(...parameters);
        return mayHoldBlobs.length > 0 ? withBuffers(rows, mayHoldBlobs) : rows;
      } catch (error) {
        throw withCodeName(error);
      }
    },
    run(parameters) {
      try {
        return statement.run(...parameters);
      } catch (error) {
        throw withCodeName(error);
      }
    },
    *iterate(parameters) {
      try {
        for (const row of statement.iterate(...parameters)) {
          yield mayHoldBlobs.length > 0 ? withBuffers([row], mayHoldBlobs)[0] : row;
        }
      } catch (error) {
        throw withCodeName(error);
      }
    },
  };
}

/** Opens `path` with node:sqlite; `nodeSqlite()` must have found it. */
export function openNodeSqlite(path: string, options: SqliteOpenOptions): SqliteConnection {
  const { DatabaseSync } = nodeSqlite() as NodeSqliteModule;
  let database: NodeSqliteDatabase;
  try {
    database = new DatabaseSync(path, { readOnly: options.readOnly ?? false });
  } catch (error) {
    throw withCodeName(error);
  }
  return {
    driver: "node:sqlite",
    prepare(sql) {
      try {
        return kyselyStatement(database.prepare(sql));
      } catch (error) {
        throw withCodeName(error);
      }
    },
    exec(sql) {
      try {
        database.exec(sql);
      } catch (error) {
        throw withCodeName(error);
      }
    },
    pluck(sql) {
      const statement = database.prepare(sql);
      statement.setReturnArrays(true);
      return () => (statement.get() as unknown[] | undefined)?.[0];
    },
    get inTransaction() {
      return database.isTransaction;
    },
    get isOpen() {
      return database.isOpen;
    },
    close: () => database.close(),
  };
}
