// The live progress line `jobs wait` and `jobs submit --wait` keep rewriting on a terminal.
import type { JobListItem } from "../api-types.js";

function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

/** `job_...: 3 done, 1 failed, 2 processing, 4 queued of 10 (12s)`. */
export function progressText(progress: JobListItem, elapsedMs: number): string {
  const { done, failed, processing, queued } = progress.counts;
  return (
    `${progress.job_id}: ${done} done, ${failed} failed, ${processing} processing, ${queued} queued` +
    ` of ${progress.videos} (${elapsed(elapsedMs)})`
  );
}

/** Rewrites one terminal line in place: carriage return, clear the line, write. */
export function rewriteLine(text: string): string {
  return `\r\x1b[2K${text}`;
}
