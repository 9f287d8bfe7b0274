// A job's choice of speech-to-text (`transcribe` of POST /v1), which its videos' workers read at the claim.
import type { Kysely } from "kysely";

/** `never` or `always`; null is the default, `auto` (transcribe only a video without captions). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("transcribe", "text").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("transcribe").execute();
}
