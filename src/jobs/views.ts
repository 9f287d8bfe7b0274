// How jobs and their videos are turned from rows into API responses (shaped by job-schemas.ts).
import { formatTimestamp } from "../domain/timestamps.js";
import type { VideoFailureCode } from "../domain/video-failure-codes.js";
import { videoUrlAt } from "../domain/video-moments.js";
import { readStoredRows } from "../extraction/stored-rows.js";
import type { JobRow, VideoRow } from "../store/tables.js";
import type { Counts, JobListItem, VideoError, VideoResult, VideoUsage } from "./job-schemas.js";
import type { VideoProgress } from "./job-video-schemas.js";
import type { VideoRows } from "./row-schemas.js";

/** The columns of a job that its views show: a read selects these and nothing else. */
export const jobViewColumns = [
  "id",
  "status",
  "schema_label",
  "video_count",
  "credits_charged",
  "queued_count",
  "processing_count",
  "done_count",
  "failed_count",
  "created_at",
  "completed_at",
  "handed_over_at",
  "cancelled_at",
] as const;
export type JobViewRow = Pick<JobRow, (typeof jobViewColumns)[number]>;

/** The columns of a settled video that the read shows, the rows aside. */
export const videoViewColumns = [
  "id",
  "platform_video_id",
  "status",
  "credits_charged",
  "row_count",
  "duration_seconds",
  "chunk_count",
  "transcript_source",
  "error_code",
  "error_message",
  "error_retryable",
] as const;
export type VideoViewRow = Pick<VideoRow, (typeof videoViewColumns)[number]> &
  Partial<Pick<VideoRow, "rows">>;

export function countsOf(
  job: Pick<JobRow, "queued_count" | "processing_count" | "done_count" | "failed_count">,
): Counts {
  return {
    queued: job.queued_count,
    processing: job.processing_count,
    done: job.done_count,
    failed: job.failed_count,
  };
}

export function jobListItem(job: JobViewRow): JobListItem {
  const settled = job.status !== "processing";
  return {
    job_id: job.id,
    status: job.status,
    schema: job.schema_label,
    videos: job.video_count,
    credits_charged: job.credits_charged,
    counts: countsOf(job),
    created_at: formatTimestamp(job.created_at),
    completed_at: formatTimestamp(job.completed_at),
    // The list never carries rows: an empty list once settled says "read the job for them".
    results: settled ? [] : null,
    handed_over_at: formatTimestamp(job.handed_over_at),
    cancelled_at: formatTimestamp(job.cancelled_at),
  };
}

/**
 * A done video's stored rows as handed over: the rows, and each one's source with its link. A source
 * already ends by the video's end as the extraction knew it. It is not cut to `durationSeconds`: that is
 * the length processed and charged (the span of the words, from the first), which the moments of a video
 * whose speech starts late run past. Rows stored before sources span the whole of it.
 */
export function handedOverRows(stored: string, videoId: string, durationSeconds: number | null): VideoRows {
  const { rows, sources, pageUrl } = readStoredRows(stored, durationSeconds ?? 0);
  return {
    results: rows,
    sources: sources.map((source) => {
      const start = source.startSeconds;
      return {
        start_seconds: start,
        end_seconds: source.endSeconds,
        url: videoUrlAt(videoId, pageUrl, start),
        quote: source.quote,
        unverified: [...source.unverified],
      };
    }),
  };
}

/** A settled video as the read shows it; `withRows` is false once the rows are handed over. */
export function videoResult(video: VideoViewRow, withRows: boolean): VideoResult {
  if (video.status === "done") {
    return {
      id: video.id,
      video_id: video.platform_video_id,
      status: "done",
      rows:
        withRows && typeof video.rows === "string"
          ? handedOverRows(video.rows, video.platform_video_id, video.duration_seconds)
          : null,
      usage: usageOf(video),
    };
  }
  return {
    id: video.id,
    video_id: video.platform_video_id,
    status: "failed",
    rows: null,
    error: errorOf(video),
    credits_charged: 0,
  };
}

/** What a done video cost and gave. */
function usageOf(video: VideoViewRow): VideoUsage {
  return {
    credits_charged: video.credits_charged,
    row_count: video.row_count ?? 0,
    duration_seconds: video.duration_seconds ?? 0,
    chunk_count: video.chunk_count ?? 0,
  };
}

/** Why a failed video failed. */
function errorOf(video: VideoViewRow): VideoError {
  return {
    // The settlement stores only the codes of domain/video-failure-codes.ts; the answers are checked against them in the suites.
    code: (video.error_code ?? "extraction_failed") as VideoFailureCode,
    message: video.error_message ?? "",
    retryable: video.error_retryable === 1,
  };
}

/** Where a done video's words came from, as stored at its settlement; null before it was stored. */
function transcriptSourceOf(stored: string | null): "captions" | "transcription" | "reused" | null {
  return stored === "captions" || stored === "transcription" || stored === "reused" ? stored : null;
}

/** A video as the per-video list shows it: its status, and once settled what it cost and how it ended. */
export function videoProgress(video: VideoViewRow): VideoProgress {
  const identity = { id: video.id, video_id: video.platform_video_id };
  switch (video.status) {
    case "queued":
    case "processing":
      return { ...identity, status: video.status };
    case "done":
      return {
        ...identity,
        status: "done",
        credits_charged: video.credits_charged,
        usage: usageOf(video),
        transcript: transcriptSourceOf(video.transcript_source),
      };
    case "failed":
      return {
        ...identity,
        status: "failed",
        credits_charged: 0,
        error: errorOf(video),
      };
  }
}
