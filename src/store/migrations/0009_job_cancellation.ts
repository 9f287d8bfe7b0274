// A job's cancellation: the moment its owner cancelled it, a fact every worker process reads from the database.
import type { Kysely } from "kysely";

/** Null while the job runs as submitted; set once by `POST /v1/{job_id}/cancel`, never cleared. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("cancelled_at", "bigint").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("cancelled_at").execute();
}
