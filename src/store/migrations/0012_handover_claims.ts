// A read's claim on a settled job's rows while its answer is written: the first phase of the handover.
import type { Kysely } from "kysely";

/**
 * `handover_claim` names the read writing the rows out (a random token) and `handover_claimed_until`
 * when that claim lapses unless renewed (Unix ms): a claim left by a process that died mid-answer
 * lapses, and the next read receives the rows (jobs/handover.ts). Both are null when no read holds one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("handover_claim", "text").execute();
  await db.schema.alterTable("jobs").addColumn("handover_claimed_until", "bigint").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("handover_claimed_until").execute();
  await db.schema.alterTable("jobs").dropColumn("handover_claim").execute();
}
