// A job's status, derived from its videos' counts.
/** A job as a whole: running, or settled one of three ways. */
export type JobStatus = "processing" | "done" | "failed" | "partial";

export interface VideoCounts {
  readonly queued: number;
  readonly processing: number;
  readonly done: number;
  readonly failed: number;
}

export function isSettled(counts: VideoCounts): boolean {
  return counts.queued === 0 && counts.processing === 0;
}

/** `processing` while any video is queued or processing; then `done`, `failed` or `partial`. */
export function jobStatus(counts: VideoCounts): JobStatus {
  if (!isSettled(counts)) return "processing";
  if (counts.failed === 0) return "done";
  if (counts.done === 0) return "failed";
  return "partial";
}
