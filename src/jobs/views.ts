// How jobs and their videos look in API responses.
import { formatTimestamp } from "../domain/timestamps.js";
import type { Row } from "../extraction/extractor.js";
import type { JobRow, JobStatus, VideoRow } from "../store/tables.js";

export interface CountsView {
  queued: number;
  processing: number;
  done: number;
  failed: number;
}

export interface JobListItem {
  job_id: string;
  status: JobStatus;
  schema: string;
  videos: number;
  credits_charged: number;
  counts: CountsView;
  created_at: string;
  completed_at: string | null;
  results: [] | null;
}

export type VideoResult =
  | {
      video_id: string;
      status: "done";
      rows: { results: Row[] } | null;
      usage: { credits_charged: number; row_count: number; duration_seconds: number; chunk_count: number };
    }
  | {
      video_id: string;
      status: "failed";
      rows: null;
      error: { code: string; message: string; retryable: boolean };
      credits_charged: 0;
    };

export type JobRead =
  | { job_id: string; status: "processing"; videos: number; counts: CountsView; results: null }
  | {
      job_id: string;
      status: SettledStatus;
      videos: number;
      credits_charged: number;
      counts: CountsView;
      results: VideoResult[];
    };

export type SettledStatus = Exclude<JobStatus, "processing">;

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
] as const;
export type JobViewRow = Pick<JobRow, (typeof jobViewColumns)[number]>;

/** The columns of a settled video that the read shows, the rows aside. */
export const videoViewColumns = [
  "platform_video_id",
  "status",
  "credits_charged",
  "row_count",
  "duration_seconds",
  "chunk_count",
  "error_code",
  "error_message",
  "error_retryable",
] as const;
export type VideoViewRow = Pick<VideoRow, (typeof videoViewColumns)[number]> &
  Partial<Pick<VideoRow, "rows">>;

export function countsOf(
  job: Pick<JobRow, "queued_count" | "processing_count" | "done_count" | "failed_count">,
): CountsView {
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
  };
}

/** A settled video as the read shows it; `withRows` is false once the rows are handed over. */
export function videoResult(video: VideoViewRow, withRows: boolean): VideoResult {
  if (video.status === "done") {
    return {
      video_id: video.platform_video_id,
      status: "done",
      rows: withRows && typeof video.rows === "string" ? { results: JSON.parse(video.rows) as Row[] } : null,
      usage: {
        credits_charged: video.credits_charged,
        row_count: video.row_count ?? 0,
        duration_seconds: video.duration_seconds ?? 0,
        chunk_count: video.chunk_count ?? 0,
      },
    };
  }
  return {
    video_id: video.platform_video_id,
    status: "failed",
    rows: null,
    error: {
      code: video.error_code ?? "extraction_failed",
      message: video.error_message ?? "",
      retryable: video.error_retryable === 1,
    },
    credits_charged: 0,
  };
}
