// The jobs API's shapes every answer about a job shares: its counts of videos by state, its status, and
// the answer to a submission. Apart from job-schemas.ts, which builds the reads on them.
import { type Static, Type } from "typebox";
import { refTo, Timestamp } from "../http/common-schemas.js";

export const Counts = Type.Object(
  {
    queued: Type.Integer({ minimum: 0 }),
    processing: Type.Integer({ minimum: 0 }),
    done: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
  },
  { $id: "JobCounts", description: "The job's videos by state." },
);
export type Counts = Static<typeof Counts>;

export const JobStatus = Type.Union(
  [Type.Literal("processing"), Type.Literal("done"), Type.Literal("failed"), Type.Literal("partial")],
  {
    $id: "JobStatus",
    description:
      "`processing` until every video settles; then `done` (all done), `failed` (all failed) or `partial`.",
  },
);

export const JobCreated = Type.Object(
  {
    job_id: Type.String(),
    status: Type.Literal("processing"),
    videos: Type.Integer(),
    schema: Type.String({ description: "`<name>-v<version>` for a saved schema, `inline` otherwise." }),
    counts: refTo(Counts),
    created_at: Timestamp,
  },
  {
    $id: "JobCreated",
    description: "A job just accepted (or, with `Idempotent-Replayed`, accepted before).",
  },
);
export type JobCreated = Static<typeof JobCreated>;
