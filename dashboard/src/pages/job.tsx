// A job: status, counts (a bar while running), credits and times, each video's status, duration, credits
// and error, all refreshed by polling reads that consume nothing; cancelling a running job; its rows only
// through "Take rows", offered only while there are rows to take.
import type { JobListItem, SettledJob } from "@vidrows/client";
import { useEffect, useState } from "preact/hooks";
import { CancelJob } from "../components/cancel-job.js";
import { ErrorMessage } from "../components/error-message.js";
import { FigureList } from "../components/figure-list.js";
import { JobRows } from "../components/job-rows.js";
import { JobProgress, JobStatus, shownStatus } from "../components/job-status.js";
import { JobVideosTable } from "../components/job-videos-table.js";
import { Link } from "../components/link.js";
import { Loading } from "../components/loading.js";
import { TakeRows } from "../components/take-rows.js";
import { Timestamp } from "../components/timestamp.js";
import { formatNumber } from "../lib/format.js";
import { useApi } from "../lib/use-api.js";
import { usePolling } from "../lib/use-polling.js";

export function JobPage({ jobId }: { jobId: string }) {
  const progress = useApi((client, signal) => client.jobs.progress(jobId, { signal }), [jobId]);
  const videos = useApi((client, signal) => client.jobs.videos(jobId, { signal }), [jobId]);
  const [taken, setTaken] = useState<SettledJob | null>(null);
  const job = progress.data;
  const running = job?.status === "processing";
  const refresh = () => {
    progress.reload();
    videos.reload();
  };
  usePolling(running, 1000, refresh);
  // The videos' last state: read once more when the job is seen to settle, so no video is left running.
  useEffect(() => {
    if (job && !running) videos.reload();
  }, [job?.status]);
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
            <JobStatus status={shownStatus(job)} />
          </p>
          <JobProgress
            counts={job.counts}
            videos={job.videos}
            status={shownStatus(job)}
            label="Videos settled"
          />
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
          {running && job.cancelled_at === null && (
            <>
              <p role="status">Running: this page follows its progress.</p>
              <CancelJob jobId={jobId} onCancelled={refresh} />
            </>
          )}
          <section aria-labelledby="videos-title">
            <h2 id="videos-title">Videos</h2>
            <ErrorMessage error={videos.error} />
            {!videos.data && videos.loading && <Loading what="the videos" />}
            {videos.data && <JobVideosTable videos={videos.data.data} />}
          </section>
          {!running &&
            (taken ? <JobRows job={taken} /> : <RowsState job={job} jobId={jobId} onTaken={setTaken} />)}
        </>
      )}
    </>
  );
}

/** What can be done about a settled job's rows: take them, or why not (taken already, or none at all). */
function RowsState({
  job,
  jobId,
  onTaken,
}: {
  job: JobListItem;
  jobId: string;
  onTaken(job: SettledJob): void;
}) {
  if (job.handed_over_at !== null) {
    return (
      <section aria-labelledby="rows-title">
        <h2 id="rows-title">Rows</h2>
        <p class="notice" role="status">
          Rows taken <Timestamp value={job.handed_over_at} />: the server handed them over once and then
          deleted them. Nobody can get them again, neither this dashboard nor any API key of the workspace.
        </p>
      </section>
    );
  }
  if (job.counts.done === 0) {
    return (
      <section aria-labelledby="rows-title">
        <h2 id="rows-title">Rows</h2>
        <p class="notice">No rows to take: every video of this job failed (see each one's error above).</p>
      </section>
    );
  }
  return <TakeRows jobId={jobId} onTaken={onTaken} />;
}
