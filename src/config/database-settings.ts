// DATABASE_URL: which database, a SQLite file or a PostgreSQL URL; VIDROWS_SQLITE_DRIVER: which SQLite driver.
import { ConfigError } from "./setting-values.js";

export type DatabaseTarget = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

/** The SQLite file used when DATABASE_URL is not set; the only path whose folder is created for it. */
export const defaultSqlitePath = "./data/vidrows.db";

export function parseDatabaseTarget(raw: string | undefined): DatabaseTarget {
  const value = raw === undefined || raw === "" ? defaultSqlitePath : raw;
  if (/^postgres(ql)?:\/\//.test(value)) {
    if (!URL.canParse(value)) {
      // Never the URL itself: it may carry a password.
      throw new ConfigError(
        "DATABASE_URL is not a valid postgres:// URL (a port that is not a number, a space, a character that needs %-encoding?).",
        "Write it as postgres://user:password@host:5432/database, %-encoding special characters in the password, then start again.",
      );
    }
    return { kind: "postgres", url: value };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (scheme !== undefined) {
    // Names the scheme, never the whole URL: it may carry a password.
    throw new ConfigError(
      `DATABASE_URL must be a SQLite file path or a postgres:// URL; got a ${scheme}:// URL.`,
    );
  }
  return { kind: "sqlite", path: value };
}

/** The two SQLite drivers: Node.js's built-in one, and the native module for Node.js without it. */
export const sqliteDriverNames = ["node:sqlite", "better-sqlite3"] as const;
export type SqliteDriverName = (typeof sqliteDriverNames)[number];

/**
 * VIDROWS_SQLITE_DRIVER: unset (the default) lets the running Node.js choose (store/sqlite/sqlite-driver.ts);
 * a driver's name asks for that one, to compare the two on one Node.js or run the suites on each.
 */
export function sqliteDriverSetting(env: NodeJS.ProcessEnv): SqliteDriverName | undefined {
  const raw = env.VIDROWS_SQLITE_DRIVER?.trim();
  if (!raw) return undefined;
  const name = sqliteDriverNames.find((known) => known === raw);
  if (name === undefined) {
    throw new ConfigError(
      `VIDROWS_SQLITE_DRIVER must be ${sqliteDriverNames.join(" or ")}, or unset to let Node.js choose; got "${raw}".`,
    );
  }
  return name;
}
