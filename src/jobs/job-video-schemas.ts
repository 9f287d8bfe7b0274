// The per-video list's responses (`GET /v1/{job_id}/videos`): each video as it stands, never its rows.
import { type Static, Type } from "typebox";
import { refTo } from "../http/common-schemas.js";
import { HandedOverAt, VideoError, VideoId, videoIdDescription, VideoUsage } from "./job-schemas.js";

const WaitingVideoProgress = Type.Object(
  {
    id: Type.Union([VideoId, Type.Null()], {
      description:
        "The video's own id (`vid_...`); null for the moment between the submission and a worker taking the job in.",
    }),
    video_id: Type.String({ description: videoIdDescription }),
    status: Type.Union([Type.Literal("queued"), Type.Literal("processing")]),
  },
  { $id: "WaitingVideoProgress", description: "A video not yet settled." },
);

const DoneVideoProgress = Type.Object(
  {
    id: VideoId,
    video_id: Type.String({ description: videoIdDescription }),
    status: Type.Literal("done"),
    credits_charged: Type.Integer(),
    usage: refTo(VideoUsage),
    transcript: Type.Union(
      [Type.Literal("captions"), Type.Literal("transcription"), Type.Literal("reused"), Type.Null()],
      {
        description:
          "Where the video's words came from: `captions` (read from the platform), `transcription` (its audio transcribed, priced at the plan's transcription rate), or `reused` (a transcript this workspace kept from an earlier job of the same video, `language` and `transcribe`: no platform request, no transcription, priced as captions); null for videos settled before vidrows said so.",
      },
    ),
  },
  { $id: "DoneVideoProgress", description: "A video whose rows were extracted (the rows are not here)." },
);

const FailedVideoProgress = Type.Object(
  {
    id: VideoId,
    video_id: Type.String({ description: videoIdDescription }),
    status: Type.Literal("failed"),
    // An integer that is always 0 (a failure is never charged); TypeBox's literal would say `number`.
    credits_charged: Type.Unsafe<0>({ type: "integer", const: 0 }),
    error: refTo(VideoError),
  },
  { $id: "FailedVideoProgress", description: "A video that failed; never charged." },
);

export const VideoProgress = Type.Union(
  [refTo(WaitingVideoProgress), refTo(DoneVideoProgress), refTo(FailedVideoProgress)],
  { $id: "VideoProgress", description: "One video of a job as it stands (branch on `status`)." },
);
export type VideoProgress = Static<typeof VideoProgress>;

export const JobVideoList = Type.Object(
  {
    data: Type.Array(refTo(VideoProgress), { description: "One item per video, in submission order." }),
    handed_over_at: HandedOverAt,
  },
  {
    $id: "JobVideoList",
    description: "A job's videos as they stand: never rows or submitted URLs, so reading it takes nothing.",
  },
);
export type JobVideoList = Static<typeof JobVideoList>;

/** The per-video list's named schemas, for `app.addSchema` after `jobComponents`. */
export const jobVideoComponents = [
  WaitingVideoProgress,
  DoneVideoProgress,
  FailedVideoProgress,
  VideoProgress,
  JobVideoList,
];
