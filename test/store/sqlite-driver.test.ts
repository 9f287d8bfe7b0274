// The SQLite driver adapter: the same answers from either driver (rows, counts, blobs as Buffers, errors
// by SQLite's code names), the driver each Node.js gets, and better-sqlite3 never loaded where node:sqlite
// is. (A server's clean start and stop on each Node.js: test/cli/start-and-stop.test.ts.)
// The in-process tests run on the driver VIDROWS_SQLITE_DRIVER names, else on the one this Node.js chooses.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ConfigError, sqliteDriverSetting } from "../../src/config.js";
import {
  chosenSqliteDriver,
  openSqliteConnection,
  type SqliteConnection,
  type SqliteDriverName,
} from "../../src/store/sqlite/sqlite-driver.js";
import { sqliteCodeName } from "../../src/store/sqlite/sqlite-result-codes.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
/** Written from Node.js's release notes, not from the adapter: node:sqlite with columns() and isTransaction. */
const hasNodeSqlite = major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
const expectedDriver: SqliteDriverName = hasNodeSqlite ? "node:sqlite" : "better-sqlite3";

const folder = mkdtempSync(join(tmpdir(), "vidrows-sqlite-driver-"));
let files = 0;
const freshPath = () => join(folder, `${++files}.db`);
const connections: SqliteConnection[] = [];
function open(path: string, options: { readOnly?: boolean } = {}): SqliteConnection {
  const connection = openSqliteConnection(path, options);
  connections.push(connection);
  return connection;
}
afterEach(() => {
  for (const connection of connections.splice(0)) if (connection.isOpen) connection.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The error `run` throws, or a failure if it throws none. */
function thrownBy(run: () => unknown): { code?: unknown; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code?: unknown; message: string };
  }
  throw new Error("expected an error");
}

describe(`the SQLite connection on ${chosenSqliteDriver()}`, () => {
  it("answers rows, counts and inserted ids as Kysely's SQLite dialect reads them, blobs as Buffers", () => {
    const sqlite = open(freshPath());
    expect(sqlite.driver).toBe(chosenSqliteDriver());
    sqlite.exec("create table notes (id integer primary key, text text not null, key blob)");
    const insert = sqlite.prepare("insert into notes (text, key) values (?, ?)");
    expect(insert.reader).toBe(false);
    const inserted = insert.run(["first", Buffer.from([0, 1, 254, 255])]);
    expect({ changes: Number(inserted.changes), id: Number(inserted.lastInsertRowid) }).toEqual({
      changes: 1,
      id: 1,
    });
    insert.run(["second", null]);
    const select = sqlite.prepare("select id, text, key, length(text) as size from notes order by id");
    expect(select.reader).toBe(true);
    const rows = select.all([]) as { id: number; text: string; key: Buffer | null; size: number }[];
    expect(rows.map(({ id, text, size }) => ({ id, text, size }))).toEqual([
      { id: 1, text: "first", size: 5 },
      { id: 2, text: "second", size: 6 },
    ]);
    expect(Buffer.isBuffer(rows[0]?.key)).toBe(true);
    expect([...(rows[0]?.key ?? [])]).toEqual([0, 1, 254, 255]);
    expect(rows[1]?.key).toBeNull();
    // A blob made by an expression, and one read through iterate(), are Buffers too.
    const made = sqlite.prepare("select x'0aff' as blob").all([]) as { blob: unknown }[];
    expect(Buffer.isBuffer(made[0]?.blob)).toBe(true);
    const iterated = [...sqlite.prepare("select key from notes where id = ?").iterate([1])] as {
      key: unknown;
    }[];
    expect(Buffer.isBuffer(iterated[0]?.key)).toBe(true);
    // An UPDATE ... RETURNING answers rows, so Kysely reads them with all().
    const returning = sqlite.prepare("update notes set text = text || '!' where id = ? returning text");
    expect(returning.reader).toBe(true);
    expect(returning.all([2])).toEqual([{ text: "second!" }]);
  });

  it("names SQLite's errors by their codes, as the store reads them", () => {
    const path = freshPath();
    const sqlite = open(path);
    sqlite.exec("create table keys (id integer primary key, name text unique)");
    sqlite.prepare("insert into keys values (?, ?)").run([1, "a"]);
    const insert = sqlite.prepare("insert into keys values (?, ?)");
    expect(thrownBy(() => insert.run([2, "a"])).code).toBe("SQLITE_CONSTRAINT_UNIQUE");
    expect(thrownBy(() => insert.run([1, "b"])).code).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    const syntax = thrownBy(() => sqlite.prepare("selec 1"));
    expect(syntax.code).toBe("SQLITE_ERROR");
    expect(syntax.message).toMatch(/syntax error/);
    // Another connection holding the write lock: SQLITE_BUSY once the wait (here none) is over.
    sqlite.exec("pragma journal_mode = WAL");
    const other = open(path);
    other.exec("pragma busy_timeout = 0");
    sqlite.exec("begin immediate");
    expect(String(thrownBy(() => other.exec("begin immediate")).code)).toMatch(/^SQLITE_BUSY/);
    sqlite.exec("rollback");
    const reader = open(path, { readOnly: true });
    expect(String(thrownBy(() => reader.exec("delete from keys")).code)).toMatch(/^SQLITE_READONLY/);
    expect(thrownBy(() => openSqliteConnection(join(folder, "none.db"), { fileMustExist: true })).code).toBe(
      "SQLITE_CANTOPEN",
    );
  });

  it("reads a value with pluck, and tells whether a transaction is open and the connection is", () => {
    const sqlite = open(freshPath());
    sqlite.exec("create table counts (n integer)");
    const changes = sqlite.pluck("select total_changes()");
    expect(changes()).toBe(0);
    expect(sqlite.inTransaction).toBe(false);
    sqlite.exec("begin");
    expect(sqlite.inTransaction).toBe(true);
    sqlite.prepare("insert into counts values (?)").run([7]);
    sqlite.exec("commit");
    expect(sqlite.inTransaction).toBe(false);
    expect(changes()).toBe(1);
    expect(typeof sqlite.pluck("pragma data_version")()).toBe("number");
    expect(sqlite.isOpen).toBe(true);
    sqlite.close();
    expect(sqlite.isOpen).toBe(false);
  });

  it("names extended result codes, and an unknown one by its primary code", () => {
    expect(sqliteCodeName(5)).toBe("SQLITE_BUSY");
    expect(sqliteCodeName(5 | (3 << 8))).toBe("SQLITE_BUSY_TIMEOUT");
    expect(sqliteCodeName(10 | (21 << 8))).toBe("SQLITE_IOERR_SHMMAP");
    expect(sqliteCodeName(19 | (8 << 8))).toBe("SQLITE_CONSTRAINT_UNIQUE");
    expect(sqliteCodeName(4 | (2 << 8))).toBe("SQLITE_ABORT_ROLLBACK");
    expect(sqliteCodeName(10 | (200 << 8))).toBe("SQLITE_IOERR");
  });
});

describe("which driver", () => {
  it(`VIDROWS_SQLITE_DRIVER names one, and one that Node.js ${process.versions.node} cannot run is refused`, () => {
    expect(sqliteDriverSetting({})).toBeUndefined();
    expect(sqliteDriverSetting({ VIDROWS_SQLITE_DRIVER: " node:sqlite " })).toBe("node:sqlite");
    expect(() => sqliteDriverSetting({ VIDROWS_SQLITE_DRIVER: "sqlite3" })).toThrow(
      /VIDROWS_SQLITE_DRIVER must be node:sqlite or better-sqlite3/,
    );
    if (hasNodeSqlite) expect(chosenSqliteDriver("node:sqlite")).toBe("node:sqlite");
    else expect(() => chosenSqliteDriver("node:sqlite")).toThrow(ConfigError);
    if (major >= 24) {
      expect(() => chosenSqliteDriver("better-sqlite3")).toThrow(/aborts the process on Node.js 24.19/);
    } else expect(chosenSqliteDriver("better-sqlite3")).toBe("better-sqlite3");
  });

  it(`is ${expectedDriver} on Node.js ${process.versions.node}, with better-sqlite3 loaded only where it is chosen`, () => {
    const database = new URL("../../dist/store/database.js", import.meta.url).href;
    // A store of a serving process (its checkpoint thread too), a write, and the native modules loaded.
    const script = [
      `import { openStore } from ${JSON.stringify(database)};`,
      `const store = openStore({ kind: "sqlite", path: ${JSON.stringify(freshPath())} }, { backgroundCheckpoints: true });`,
      'await store.db.schema.createTable("t").addColumn("a", "text").execute();',
      'await store.db.insertInto("t").values({ a: "x" }).execute();',
      "await new Promise((resolve) => setTimeout(resolve, 200));",
      "const native = process.report.getReport().sharedObjects.filter((path) => /better_sqlite3/.test(path));",
      "await store.close();",
      "process.stdout.write(JSON.stringify({ driver: store.driver, native }));",
    ].join("\n");
    const env = { ...process.env };
    delete env.VIDROWS_SQLITE_DRIVER;
    // A file, not -e: the checkpoint thread would inherit --input-type and fail to start.
    const scriptPath = join(folder, "open-store.mjs");
    writeFileSync(scriptPath, script);
    const result = spawnSync(process.execPath, [scriptPath], { encoding: "utf8", env });
    // Nothing on stderr: no ExperimentalWarning from loading node:sqlite (Node.js 22), no abort.
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const { driver, native } = JSON.parse(result.stdout) as { driver: string; native: string[] };
    expect(driver).toBe(expectedDriver);
    if (expectedDriver === "node:sqlite") expect(native).toEqual([]);
    else expect(native).toHaveLength(1);
  });
});
