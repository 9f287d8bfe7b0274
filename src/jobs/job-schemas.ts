// The jobs API's responses: each shape defined once, as the schema the routes document and serialise
// by (named in the OpenAPI document by its `$id`), and as the type (`Static`) the services return.
import { type Static, Type } from "typebox";
import { videoFailureCodes } from "../domain/video-failure-codes.js";
import { NullableTimestamp, Page, refTo, Timestamp } from "../http/common-schemas.js";
import { RowSource, VideoRows } from "./row-schemas.js";
import { Counts, JobCreated, JobStatus } from "./job-summary-schemas.js";

export { Counts, JobCreated };

export const videoIdDescription =
  "The platform's id of the video: YouTube's 11-character id, or `<platform>:<id>` for another platform as yt-dlp names its extractor (`vimeo:76979871`, `tiktok:7106594312292453675`). A page whose video is named only once a worker reads it shows `url:<16 hex digits>` (a digest of its URL) until then.";

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

/** A video's own id, beside the platform's: the one the list's `search` matches. */
export const VideoId = Type.String({
  description: "The video's own id (`vid_...`), which the list's `search` matches.",
});

export const VideoUsage = Type.Object(
  {
    credits_charged: Type.Integer(),
    row_count: Type.Integer(),
    duration_seconds: Type.Integer(),
    chunk_count: Type.Integer(),
  },
  { $id: "VideoUsage", description: "What a done video cost and gave." },
);
export type VideoUsage = Static<typeof VideoUsage>;

export const VideoError = Type.Object(
  {
    code: Type.Enum(videoFailureCodes, {
      description:
        "`no_captions`: the video has no captions (in the language asked); `video_unavailable`: private, removed, or not a video; `captions_unavailable`: the platform kept the captions from us; `transcription_failed`: speech-to-text failed; `extraction_failed`: the model failed; `insufficient_credits`: the balance could not pay for it; `hard_cap_reached`: paying would cross the hard cap; `cancelled`: the job was cancelled first.",
    }),
    message: Type.String(),
    retryable: Type.Boolean(),
  },
  { $id: "VideoError", description: "Why a video failed." },
);
export type VideoError = Static<typeof VideoError>;

const DoneVideo = Type.Object(
  {
    id: VideoId,
    video_id: Type.String({ description: videoIdDescription }),
    status: Type.Literal("done"),
    rows: Type.Union([refTo(VideoRows), Type.Null()], {
      description:
        "The rows and their sources, in the one read that hands them over; null in every other read.",
    }),
    usage: refTo(VideoUsage),
  },
  { $id: "DoneVideo", description: "A video whose rows were extracted." },
);

const FailedVideo = Type.Object(
  {
    id: VideoId,
    video_id: Type.String({ description: videoIdDescription }),
    status: Type.Literal("failed"),
    // Typed as a done video's rows or null, not as null alone: generators drop a property whose only type
    // is null, and a client reading `rows` on any result should find it on every one.
    rows: Type.Union([refTo(VideoRows), Type.Null()], {
      description: "Always null: a failed video has no rows.",
    }),
    error: refTo(VideoError),
    // An integer that is always 0 (a failure is never charged); TypeBox's literal would say `number`.
    credits_charged: Type.Unsafe<0>({ type: "integer", const: 0 }),
  },
  { $id: "FailedVideo", description: "A video that failed; never charged." },
);

export const VideoResult = Type.Union([refTo(DoneVideo), refTo(FailedVideo)], { $id: "VideoResult" });
export type VideoResult = Static<typeof VideoResult>;

export const RunningJob = Type.Object(
  {
    job_id: Type.String(),
    status: Type.Literal("processing"),
    videos: Type.Integer(),
    counts: refTo(Counts),
    // An empty list or null rather than null alone, which generators would drop (see FailedVideo's rows).
    results: Type.Union([Type.Array(refTo(VideoResult), { maxItems: 0 }), Type.Null()], {
      description: "Always null while the job runs: the results come once it has settled.",
    }),
  },
  { $id: "RunningJob", description: "A job some of whose videos have not settled: counts, no results." },
);

const SettledJob = Type.Object(
  {
    job_id: Type.String(),
    status: Type.Union([Type.Literal("done"), Type.Literal("failed"), Type.Literal("partial")]),
    videos: Type.Integer(),
    credits_charged: Type.Integer(),
    columns: Type.Array(Type.String(), {
      description:
        "The schema's columns, in order: the keys of every row in `results`, given also when there are no rows (a table's header).",
    }),
    counts: refTo(Counts),
    results: Type.Array(refTo(VideoResult)),
    rows_held: Type.Boolean({
      description:
        "true when another read's answer is carrying the rows right now: this read's done videos have `rows: null`, but the rows are not handed over yet and come back if that answer does not get through, so read again in a moment. false otherwise: `rows: null` then means the rows were handed over (see `handed_over_at` in the list or `GET /v1/{job_id}/videos`).",
    }),
  },
  { $id: "SettledJob", description: "A job whose videos have all settled, with each video's result." },
);

export type RunningJob = Static<typeof RunningJob>;

export const JobRead = Type.Union([refTo(RunningJob), refTo(SettledJob)], {
  $id: "Job",
  description: "A job as `GET /v1/{job_id}` reads it: running or settled (branch on `status`).",
});
export type JobRead = Static<typeof JobRead>;
export type SettledStatus = Static<typeof SettledJob>["status"];

/**
 * The jobs API's named schemas, for `app.addSchema`, each after the ones it refers to (then those of
 * `job-video-schemas.ts`, which refer to these).
 */
export const jobComponents = [
  Counts,
  JobStatus,
  JobCreated,
  JobListItem,
  JobPage,
  RowSource,
  VideoRows,
  VideoUsage,
  VideoError,
  DoneVideo,
  FailedVideo,
  VideoResult,
  RunningJob,
  SettledJob,
  JobRead,
];
