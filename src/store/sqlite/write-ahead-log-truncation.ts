// SQLite's half of the storage eraser (store/storage-eraser.ts): the log's older page copies removed.
import { type Kysely, sql } from "kysely";
import type { Database } from "../tables.js";
import { sqliteBusyTimeoutMs } from "./open-sqlite.js";

/**
 * Deleted content is zeroed in place (`secure_delete`, open-sqlite.ts), but the write-ahead log keeps
 * the earlier copies of the pages. A checkpoint in TRUNCATE mode copies the log into the database file
 * and cuts the log to nothing. It never waits on a lock (busy_timeout 0 for its duration, so the event
 * loop is not held up): when another connection is reading or writing, it throws, and the eraser tries
 * again shortly.
 */
export async function truncateWriteAheadLog(db: Kysely<Database>): Promise<void> {
  await db.connection().execute(async (conn) => {
    await sql`pragma busy_timeout = 0`.execute(conn);
    try {
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(conn);
      if (rows[0]?.busy !== 0) throw new Error("another connection held the database (checkpoint busy)");
    } finally {
      await sql`pragma ${sql.raw(`busy_timeout = ${sqliteBusyTimeoutMs}`)}`.execute(conn);
    }
  });
}
