// A job's status as a word with its colour, and its progress (settled videos of all) as a bar. A cancelled
// job reads "Cancelled" in a neutral colour: its videos failed because someone asked, not because of a fault.
import type { JobCounts, JobListItem } from "@vidrows/client";

const words: Record<string, string> = {
  processing: "Running",
  done: "Done",
  failed: "Failed",
  partial: "Partly failed",
  cancelling: "Cancelling",
  cancelled: "Cancelled",
};

/** The status to show: the API's, or `cancelling` and then `cancelled` for a job someone cancelled. */
export function shownStatus(job: Pick<JobListItem, "status" | "cancelled_at">): string {
  if (job.cancelled_at === null) return job.status;
  return job.status === "processing" ? "cancelling" : "cancelled";
}

export function JobStatus({ status }: { status: string }) {
  return <span class={`status status-${status}`}>{words[status] ?? status}</span>;
}

/** The bar takes the status's colour, so that a job whose every video failed never reads as a full blue bar. */
export function JobProgress({
  counts,
  videos,
  status,
  label,
}: {
  counts: JobCounts;
  videos: number;
  status: string;
  label: string;
}) {
  const settled = counts.done + counts.failed;
  return (
    <progress
      class={`job-progress progress-${status}`}
      max={Math.max(1, videos)}
      value={settled}
      aria-label={label}
    >
      {settled} of {videos}
    </progress>
  );
}
