// The SQLite driver the store runs on, chosen at start by the Node.js that runs it: node:sqlite where
// Node.js has it, better-sqlite3 only where it does not. Everything in store/sqlite/ opens SQLite here.
import { existsSync } from "node:fs";
// The settings' own files, not config.ts: the checkpoint thread loads this module, and no more than it needs.
import { type SqliteDriverName, sqliteDriverSetting } from "../../config/database-settings.js";
import { ConfigError } from "../../config/setting-values.js";
import { openBetterSqlite3 } from "./better-sqlite3-driver.js";
import type { SqliteConnection, SqliteOpenOptions } from "./sqlite-connection.js";
import { nodeSqlite, openNodeSqlite } from "./node-sqlite-driver.js";

export type { SqliteDriverName } from "../../config/database-settings.js";
export type { SqliteConnection, SqliteOpenOptions } from "./sqlite-connection.js";

/**
 * better-sqlite3 12 aborts the process on Node.js 24.19 and later (a statement collected by a garbage
 * collection: `Assertion failed: (env) != nullptr`), and 13 crashes on Node.js 20: it is asked for only
 * below this major, where it is tested.
 */
const betterSqlite3BelowMajor = 24;

/**
 * The driver for this process: the one VIDROWS_SQLITE_DRIVER names (to compare them, or to run the
 * suites on each), refused where it cannot work; unset, node:sqlite where Node.js has it (22.16 and
 * later), better-sqlite3 where it does not (Node.js 20).
 */
export function chosenSqliteDriver(asked = sqliteDriverSetting(process.env)): SqliteDriverName {
  const node = process.versions.node;
  if (asked === "better-sqlite3" && Number(node.split(".")[0]) >= betterSqlite3BelowMajor) {
    throw new ConfigError(
      `VIDROWS_SQLITE_DRIVER is better-sqlite3, which aborts the process on Node.js 24.19 and later; this is Node.js ${node}.`,
      "Unset VIDROWS_SQLITE_DRIVER (node:sqlite is then used), then start again.",
    );
  }
  if (asked === "better-sqlite3") return asked;
  if (nodeSqlite() !== null) return "node:sqlite";
  if (asked === "node:sqlite") {
    throw new ConfigError(
      `VIDROWS_SQLITE_DRIVER is node:sqlite, but Node.js ${node} has no node:sqlite the store can use (22.16 and later have).`,
      "Unset VIDROWS_SQLITE_DRIVER (better-sqlite3 is then used), or run Node.js 22.16 or later, then start again.",
    );
  }
  return "better-sqlite3";
}

/** Opens a connection to the SQLite file at `path` (or ":memory:") with the chosen driver. */
export function openSqliteConnection(path: string, options: SqliteOpenOptions = {}): SqliteConnection {
  if (options.fileMustExist && !existsSync(path)) {
    throw Object.assign(new Error(`unable to open database file: ${path} does not exist`), {
      code: "SQLITE_CANTOPEN",
    });
  }
  const driver = options.driver ?? chosenSqliteDriver();
  return driver === "node:sqlite" ? openNodeSqlite(path, options) : openBetterSqlite3(path, options);
}
