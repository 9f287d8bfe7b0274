// The jobs API's responses: each shape defined once, as the schema the routes document and serialise
// by, and as the type (`Static`) the services return.
import { type Static, Type } from "typebox";
import { NullableTimestamp, Page, Timestamp } from "../http/common-schemas.js";

export const Counts = Type.Object({
  queued: Type.Integer({ minimum: 0 }),
  processing: Type.Integer({ minimum: 0 }),
  done: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
});
export type Counts = Static<typeof Counts>;

const JobStatus = Type.Union([
  Type.Literal("processing"),
  Type.Literal("done"),
  Type.Literal("failed"),
  Type.Literal("partial"),
]);

export const JobCreated = Type.Object({
  job_id: Type.String(),
  status: Type.Literal("processing"),
  videos: Type.Integer(),
  schema: Type.String({ description: "`<name>-v<version>` for a saved schema, `inline` otherwise." }),
  counts: Counts,
  created_at: Timestamp,
});
export type JobCreated = Static<typeof JobCreated>;

export const JobListItem = Type.Object({
  job_id: Type.String(),
  status: JobStatus,
  schema: Type.String(),
  videos: Type.Integer(),
  credits_charged: Type.Integer(),
  counts: Counts,
  created_at: Timestamp,
  completed_at: NullableTimestamp,
  results: Type.Union([Type.Array(Type.Never(), { maxItems: 0 }), Type.Null()], {
    description: "null while running; an empty list once settled. The list never carries rows.",
  }),
});
export type JobListItem = Static<typeof JobListItem>;

export const JobPage = Page(JobListItem);
export type JobPage = Static<typeof JobPage>;

const Cell = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

const DoneVideo = Type.Object({
  video_id: Type.String(),
  status: Type.Literal("done"),
  rows: Type.Union([Type.Object({ results: Type.Array(Type.Record(Type.String(), Cell)) }), Type.Null()], {
    description: "The rows, in the one read that hands them over; null in every other read.",
  }),
  usage: Type.Object({
    credits_charged: Type.Integer(),
    row_count: Type.Integer(),
    duration_seconds: Type.Integer(),
    chunk_count: Type.Integer(),
  }),
});

const FailedVideo = Type.Object({
  video_id: Type.String(),
  status: Type.Literal("failed"),
  rows: Type.Null(),
  error: Type.Object({ code: Type.String(), message: Type.String(), retryable: Type.Boolean() }),
  credits_charged: Type.Literal(0),
});

export const VideoResult = Type.Union([DoneVideo, FailedVideo]);
export type VideoResult = Static<typeof VideoResult>;

const RunningJob = Type.Object({
  job_id: Type.String(),
  status: Type.Literal("processing"),
  videos: Type.Integer(),
  counts: Counts,
  results: Type.Null(),
});

const SettledJob = Type.Object({
  job_id: Type.String(),
  status: Type.Union([Type.Literal("done"), Type.Literal("failed"), Type.Literal("partial")]),
  videos: Type.Integer(),
  credits_charged: Type.Integer(),
  counts: Counts,
  results: Type.Array(VideoResult),
});

export const JobRead = Type.Union([RunningJob, SettledJob]);
export type JobRead = Static<typeof JobRead>;
export type SettledStatus = Static<typeof SettledJob>["status"];
