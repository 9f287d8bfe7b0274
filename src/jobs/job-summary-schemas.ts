// A job as the list shows it (and what it shares with the other job answers: its counts, its status, when
// its rows were handed over), defined once for the routes, the OpenAPI document and the services' types.
import { type Static, Type } from "typebox";
import { NullableTimestamp, Page, refTo, Timestamp } from "../http/common-schemas.js";

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

/** When the one read that carried the rows was written whole; null before (and for a running job). */
export const HandedOverAt = Type.Union([Timestamp, Type.Null()], {
  description:
    "When the rows were handed over (the one read carrying them was written whole), or null: a settled job's rows are still there for one read.",
});

export const JobListItem = Type.Object(
  {
    job_id: Type.String(),
    status: refTo(JobStatus),
    schema: Type.String(),
    videos: Type.Integer(),
    credits_charged: Type.Integer(),
    counts: refTo(Counts),
    created_at: Timestamp,
    completed_at: NullableTimestamp,
    results: Type.Union([Type.Array(Type.Never(), { maxItems: 0 }), Type.Null()], {
      description: "null while running; an empty list once settled. The list never carries rows.",
    }),
    handed_over_at: HandedOverAt,
    cancelled_at: Type.Union([Timestamp, Type.Null()], {
      description:
        "When the job was cancelled (`POST /v1/{job_id}/cancel`), or null. A cancelled job settles as any job does (`failed`, or `partial` when some videos were done first); this says why.",
    }),
  },
  { $id: "JobSummary", description: "A job as the list shows it: never with rows." },
);
export type JobListItem = Static<typeof JobListItem>;

export const JobPage = Page(JobListItem, "JobList");
export type JobPage = Static<typeof JobPage>;
