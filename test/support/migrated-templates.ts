// Migrated databases to copy from: each test database starts as a copy of one that the migrations have
// already run on, instead of running all of them again. A template is named by a hash of the migrations'
// source, so a changed or added migration makes a new one and a stale template is never used.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openStore } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";

const storeFolder = new URL("../../src/store/", import.meta.url);

/** A hash of every migration's source and of the list that runs them, short enough for a database name. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  const migrationsFolder = new URL("migrations/", storeFolder);
  for (const name of readdirSync(migrationsFolder).sort()) {
    hash.update(name).update(readFileSync(new URL(name, migrationsFolder)));
  }
  hash.update(readFileSync(new URL("migrate.ts", storeFolder)));
  return hash.digest("hex").slice(0, 16);
}

const templateHash = migrationsHash();

/** The PostgreSQL template's name: `vidrows_template_<hash of the migrations>`. */
export const postgresTemplateName = `vidrows_template_${templateHash}`;

// Any fixed number serves, so long as every test worker takes the same one.
const templateLockKey = 7_212_026;

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated template on the server of `adminUrl`, made if it is missing. Test workers run in parallel
 * and several runs may share the server: an advisory lock lets one of them build it while the others wait,
 * and it is built under a temporary name and renamed when complete, so a run that dies half-way leaves
 * nothing that looks finished. Marked as a template, so that a mistaken `drop database` refuses.
 */
export function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  postgresTemplate ??= buildPostgresTemplate(adminUrl).catch((error: unknown) => {
    postgresTemplate = undefined;
    throw error;
  });
  return postgresTemplate;
}

async function buildPostgresTemplate(adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock($1)", [templateLockKey]);
    const found = await admin.query("select 1 from pg_database where datname = $1", [postgresTemplateName]);
    if (found.rowCount === 0) {
      const building = `${postgresTemplateName}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const store = openStore({ kind: "postgres", url: url.toString() }, { maxConnections: 1 });
      try {
        await migrateToLatest(store);
      } finally {
        await store.close();
      }
      await admin.query(`alter database ${building} rename to ${postgresTemplateName}`);
      await admin.query(`alter database ${postgresTemplateName} is_template true`);
    }
    return postgresTemplateName;
  } finally {
    await admin.query("select pg_advisory_unlock($1)", [templateLockKey]).catch(() => {});
    await admin.end();
  }
}

let sqliteTemplate: Promise<string> | undefined;

/**
 * A migrated SQLite file in the temporary folder, shared by the runs and workers of one migration set.
 * Workers that find it missing at the same moment each build their own copy and rename it into place:
 * the rename is atomic, so a reader sees a whole file or none.
 */
export function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= buildSqliteTemplate().catch((error: unknown) => {
    sqliteTemplate = undefined;
    throw error;
  });
  return sqliteTemplate;
}

async function buildSqliteTemplate(): Promise<string> {
  const path = join(tmpdir(), `vidrows-template-${templateHash}.db`);
  if (existsSync(path)) return path;
  const building = `${path}.${process.pid}.building`;
  const store = openStore({ kind: "sqlite", path: building });
  try {
    await migrateToLatest(store);
  } finally {
    // The last connection to close checkpoints the log into the file and removes it: the file is whole.
    await store.close();
  }
  renameSync(building, path);
  for (const leftover of ["-wal", "-shm"]) rmSync(`${building}${leftover}`, { force: true });
  return path;
}

/** Copies the SQLite template to `path`. */
export async function copySqliteTemplate(path: string): Promise<void> {
  copyFileSync(await migratedSqliteTemplate(), path);
}
