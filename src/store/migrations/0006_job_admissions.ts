// Jobs accepted whose videos are not yet rows of the queue: a submission writes one row here, workers expand it.
import type { Kysely } from "kysely";

/**
 * A submission used to write a row per video, each with five index entries, inside the request: about
 * 7 µs a video on SQLite, most of what `POST /v1` cost, and on PostgreSQL a statement per 100 videos
 * under the workspace's lock. Now it writes the job and this one row, with the queue places it was
 * given (`first_priority` onwards), and a worker turns the row into the job's videos as it next claims
 * work (pipeline/admissions.ts). Keyed by workspace first, since the list's search looks here, by
 * workspace, for jobs whose videos are not yet rows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("job_admissions")
    .addColumn("workspace_id", "text", (c) => c.notNull())
    .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id"))
    .addColumn("first_priority", "bigint", (c) => c.notNull())
    // JSON arrays, one element per video in the job's order.
    .addColumn("platform_video_ids", "text", (c) => c.notNull())
    .addColumn("submitted_urls", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("job_admissions_pk", ["workspace_id", "job_id"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_admissions").execute();
}
