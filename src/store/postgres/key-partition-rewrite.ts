// PostgreSQL's half of the storage eraser (store/storage-eraser.ts): deleted data keys rewritten out of the files.
import { type Kysely, sql } from "kysely";
import type { Database } from "../tables.js";

/** How long the rewrite may wait for a partition's lock before it gives way and tries later. */
const lockTimeoutMs = 200;

/**
 * Rewrites each partition of `job_keys` in `left` (VACUUM FULL: a new file, the old one truncated at
 * commit), taking it out of `left` once done. The handover deleted the job's data key, and with the
 * key gone from the files, the sealed values (store/sealed-values.ts) left in the big tables are noise.
 * A partition is a sixteenth of the unread jobs' keys; the rewrite gives up after `lockTimeoutMs`
 * rather than make busy statements queue behind it, and the eraser tries again.
 */
export async function rewriteKeyPartitions(db: Kysely<Database>, left: Set<string>): Promise<void> {
  if (left.size === 0) return;
  await db.connection().execute(async (conn) => {
    await sql`set lock_timeout = ${sql.lit(`${lockTimeoutMs}ms`)}`.execute(conn);
    try {
      for (const partition of [...left]) {
        await sql`vacuum full ${sql.raw(partition)}`.execute(conn);
        left.delete(partition);
      }
    } finally {
      await sql`reset lock_timeout`.execute(conn);
    }
  });
}
