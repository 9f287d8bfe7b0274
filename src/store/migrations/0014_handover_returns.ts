// When a handover's whole answer was reset and its rows put back: once per job, so no key can replay it.
import type { Kysely } from "kysely";

/**
 * `handover_returned_at` is when a read's whole answer was followed by a reset that put the rows back
 * (Unix ms), or null. It happens at most once per job: a claim on a job that has one is final, and its
 * whole answer hands the rows over whatever the connection does next (jobs/handover-delivery.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("handover_returned_at", "bigint").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("handover_returned_at").execute();
}
