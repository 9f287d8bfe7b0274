// The queue's and the leases' indexes hold only the videos they are for: queued ones, and processing ones.
import { type Kysely, sql } from "kysely";

/**
 * Claims look for queued videos in priority order and for processing videos whose lease ran out; no
 * query looks for done or failed videos by status. Indexed on status, every video stayed in both
 * indexes for ever, and every submitted video cost an entry in the leases index it would not need
 * until it was claimed. Partial indexes hold only the rows their queries ask for, so they stay the
 * size of the work in hand, and a settled video leaves both. (The queries must name the status as a
 * literal, not a parameter, for the planner to know that the index covers them.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index videos_queue`.execute(db);
  await sql`create index videos_queue on videos (priority, id) where status = 'queued'`.execute(db);
  await sql`drop index videos_leases`.execute(db);
  await sql`create index videos_leases on videos (lease_expires_at) where status = 'processing'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index videos_queue`.execute(db);
  await sql`create index videos_queue on videos (status, priority, id)`.execute(db);
  await sql`drop index videos_leases`.execute(db);
  await sql`create index videos_leases on videos (status, lease_expires_at)`.execute(db);
}
