// The databases every store and API suite runs against: SQLite always, PostgreSQL when it is reachable.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { DatabaseTarget } from "../../src/config.js";
import { copySqliteTemplate, migratedPostgresTemplate } from "./migrated-templates.js";

export type DialectName = "sqlite" | "postgres";

/** The server PostgreSQL suites use; each test file gets a database of its own on it. */
export const postgresUrl = process.env.VIDROWS_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const wanted = (process.env.VIDROWS_TEST_DIALECTS ?? "sqlite,postgres").split(",").map((d) => d.trim());
const postgresProblem = wanted.includes("postgres") ? await postgresReachable() : "not asked for";

// CI sets VIDROWS_REQUIRE_POSTGRES=1: there a missing PostgreSQL is a failure, never a quiet skip.
if (postgresProblem !== null && wanted.includes("postgres") && process.env.VIDROWS_REQUIRE_POSTGRES === "1") {
  throw new Error(
    `PostgreSQL is required (VIDROWS_REQUIRE_POSTGRES=1) but ${postgresUrl} failed: ${postgresProblem}`,
  );
}

export interface DialectCase {
  readonly name: DialectName;
  /** Why the dialect's suites skip, or null when they run. */
  readonly skipReason: string | null;
}

export const dialects: DialectCase[] = [
  { name: "sqlite", skipReason: wanted.includes("sqlite") ? null : "not in VIDROWS_TEST_DIALECTS" },
  {
    name: "postgres",
    skipReason:
      postgresProblem === null ? null : `PostgreSQL at ${postgresUrl} unavailable (${postgresProblem})`,
  },
];

for (const d of dialects) {
  if (d.skipReason && wanted.includes(d.name))
    console.warn(`[vidrows tests] ${d.name} suites SKIPPED: ${d.skipReason}`);
}

/** `describe` title that says when a dialect is skipped and why. */
export function dialectTitle(d: DialectCase): string {
  return d.skipReason ? `${d.name} (skipped: ${d.skipReason})` : d.name;
}

export interface FreshDatabase {
  readonly target: DatabaseTarget;
  /** The target as a DATABASE_URL value, for child processes. */
  readonly url: string;
  drop(): Promise<void>;
}

// VIDROWS_TEST_TEMPLATES=0 migrates each database from scratch instead, to measure what the templates save.
const copyTemplates = process.env.VIDROWS_TEST_TEMPLATES !== "0";

export interface FreshDatabaseOptions {
  /** No tables at all, for tests of the migrations themselves; otherwise every migration has run. */
  readonly empty?: boolean;
}

/**
 * A database of its own: a file in a temporary folder, or a new PostgreSQL database. It is a copy of a
 * migrated template (see migrated-templates.ts) unless asked for empty: the server's own migration at
 * start then finds nothing to do.
 */
export async function freshDatabase(
  dialect: DialectName,
  options: FreshDatabaseOptions = {},
): Promise<FreshDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "vidrows-test-"));
    const path = join(dir, "vidrows.db");
    if (!options.empty && copyTemplates) await copySqliteTemplate(path);
    return {
      target: { kind: "sqlite", path },
      url: path,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `vidrows_test_${randomBytes(6).toString("hex")}`;
  const copied =
    options.empty || !copyTemplates ? "" : ` template ${await migratedPostgresTemplate(postgresUrl)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}${copied}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: "postgres", url: url.toString() },
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
