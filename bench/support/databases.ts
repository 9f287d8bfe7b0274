// Databases of the benchmark's own: a SQLite file in a temporary folder, or a new database on the
// PostgreSQL server that DATABASE_URL names; each is dropped after its section.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import type { DatabaseTarget } from "../../src/config.js";
import { openStore, type Store } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";

export type BenchDialect = "sqlite" | "postgres";

export interface BenchDatabase {
  readonly dialect: BenchDialect;
  /** As a DATABASE_URL value, for the child processes. */
  readonly url: string;
  /** Opened and migrated, for seeding and checking. */
  readonly store: Store;
  /** The database's size on disk now, MB (SQLite: the file and its write-ahead log). */
  sizeMb(): Promise<number>;
  /** Closes the store and deletes the database. */
  drop(): Promise<void>;
}

const mb = (bytes: number) => bytes / 2 ** 20;

async function opened(target: DatabaseTarget): Promise<Store> {
  const store = openStore(target, { maxConnections: 4 });
  await migrateToLatest(store);
  return store;
}

export async function freshDatabase(
  dialect: BenchDialect,
  postgresUrl: string | undefined,
): Promise<BenchDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "vidrows-bench-"));
    const path = join(dir, "vidrows.db");
    const store = await opened({ kind: "sqlite", path });
    return {
      dialect,
      url: path,
      store,
      async sizeMb() {
        const files = [path, `${path}-wal`].filter((file) => existsSync(file));
        return mb(files.reduce((total, file) => total + statSync(file).size, 0));
      },
      async drop() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (postgresUrl === undefined) throw new Error("PostgreSQL needs DATABASE_URL=postgres://...");
  const name = `vidrows_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const store = await opened({ kind: "postgres", url: url.toString() });
  return {
    dialect,
    url: url.toString(),
    store,
    async sizeMb() {
      const { rows } = await sql<{
        bytes: string;
      }>`select pg_database_size(current_database()) as bytes`.execute(store.db);
      return mb(Number(rows[0]?.bytes ?? 0));
    },
    async drop() {
      await store.close();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * After bulk loading PostgreSQL, the planner statistics its autovacuum would soon gather anyway. SQLite
 * is left as the server leaves it: nothing there runs ANALYZE, so plans must be good without statistics.
 */
export async function settleStatistics(database: BenchDatabase): Promise<void> {
  if (database.dialect === "postgres") await sql`vacuum analyze`.execute(database.store.db);
}
