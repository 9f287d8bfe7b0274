// A job: status, counts (a bar while running, refreshed by polling its progress, which consumes nothing),
// credits and times; its rows only through "Take rows".
import type { SettledJob } from "@vidrows/client";
import { useState } from "preact/hooks";
import { ErrorMessage } from "../components/error-message.js";
import { FigureList } from "../components/figure-list.js";
import { JobRows } from "../components/job-rows.js";
import { JobProgress, JobStatus } from "../components/job-status.js";
import { Link } from "../components/link.js";
import { Loading } from "../components/loading.js";
import { TakeRows } from "../components/take-rows.js";
import { Timestamp } from "../components/timestamp.js";
import { formatNumber } from "../lib/format.js";
import { useApi } from "../lib/use-api.js";
import { usePolling } from "../lib/use-polling.js";

export function JobPage({ jobId }: { jobId: string }) {
  const progress = useApi((client, signal) => client.jobs.progress(jobId, { signal }), [jobId]);
  const [taken, setTaken] = useState<SettledJob | null>(null);
  const job = progress.data;
  const running = job?.status === "processing";
  usePolling(running, 1000, progress.reload);
  return (
    <>
      <p class="crumbs">
        <Link to="/jobs">Jobs</Link>
      </p>
      <h1>
        Job <code>{jobId}</code>
      </h1>
      <ErrorMessage error={progress.error} />
      {!job && progress.loading && <Loading what="the job" />}
      {job && (
        <>
          <p>
            <JobStatus status={job.status} />
          </p>
          <JobProgress counts={job.counts} videos={job.videos} label="Videos settled" />
          <FigureList
            figures={[
              ["Schema", job.schema],
              ["Videos", formatNumber(job.videos)],
              ["Queued", formatNumber(job.counts.queued)],
              ["Processing", formatNumber(job.counts.processing)],
              ["Done", formatNumber(job.counts.done)],
              ["Failed", formatNumber(job.counts.failed)],
              ["Credits charged", formatNumber(job.credits_charged)],
              ["Created", <Timestamp value={job.created_at} />],
              ["Completed", <Timestamp value={job.completed_at} empty="Not yet" />],
            ]}
          />
          {running && <p role="status">Running: this page follows its progress.</p>}
          {!running && !taken && <TakeRows jobId={jobId} onTaken={setTaken} />}
          {taken && <JobRows job={taken} />}
        </>
      )}
    </>
  );
}
