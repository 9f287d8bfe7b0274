// Every file a test database is made of, read as bytes: to prove that deleted data left them.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { FreshDatabase } from "./databases.js";

/** The database's files, or why they cannot be read (PostgreSQL's data folder belongs to another user). */
export type DatabaseFiles = { files: string[] } | { unreadable: string };

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * SQLite: the database file and its `-wal` and `-shm` files. PostgreSQL: every relation file of the
 * database (its folder under the server's `base/`), after a CHECKPOINT has written every changed page
 * out to them; the test must run on the server's machine, as a user that may read that folder.
 */
export async function databaseFiles(database: FreshDatabase): Promise<DatabaseFiles> {
  if (database.target.kind === "sqlite") {
    const path = database.target.path;
    return { files: [path, `${path}-wal`, `${path}-shm`].filter((file) => existsSync(file)) };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query("checkpoint");
    const dataDirectory = (await client.query("show data_directory")).rows[0].data_directory as string;
    const oid = (await client.query("select oid from pg_database where datname = current_database()")).rows[0]
      .oid as number;
    const folder = join(dataDirectory, "base", String(oid));
    try {
      statSync(folder);
      return { files: filesUnder(folder) };
    } catch (error) {
      return { unreadable: `${folder}: ${(error as Error).message}` };
    }
  } finally {
    await client.end();
  }
}

/** `file: marker` for each of `markers` (text, or bytes shown in hex) found in each file; none found: an empty list. */
export function markersIn(files: readonly string[], markers: readonly (string | Buffer)[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      // PostgreSQL unlinks a rewritten relation's old file at the next checkpoint; gone is clean.
      continue;
    }
    for (const marker of markers) {
      if (bytes.includes(marker))
        found.push(`${file}: ${typeof marker === "string" ? marker : marker.toString("hex")}`);
    }
  }
  return found;
}
