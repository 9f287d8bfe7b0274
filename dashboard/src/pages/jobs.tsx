// Jobs: the list with its status filter, search and pages. Listing never hands rows over, so browsing
// is safe; the list refreshes itself while a job on it is running.
import type { JobListQuery } from "@vidrows/client";
import { useState } from "preact/hooks";
import { ErrorMessage } from "../components/error-message.js";
import { JobProgress, JobStatus, shownStatus } from "../components/job-status.js";
import { Link } from "../components/link.js";
import { Pager } from "../components/pager.js";
import { Empty, Loading } from "../components/loading.js";
import { TableScroll } from "../components/table-scroll.js";
import { Timestamp } from "../components/timestamp.js";
import { formatNumber } from "../lib/format.js";
import { useApi } from "../lib/use-api.js";
import { usePolling } from "../lib/use-polling.js";

const pageSize = 25;
type StatusFilter = NonNullable<JobListQuery["status"]>;
const filters: { value: StatusFilter | ""; name: string }[] = [
  { value: "", name: "All jobs" },
  { value: "running", name: "Running" },
  { value: "succeeded", name: "Succeeded" },
  { value: "failed", name: "Failed" },
];

export function JobsPage() {
  const [status, setStatus] = useState<StatusFilter | "">("");
  const [searchText, setSearchText] = useState("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const query: JobListQuery = {
    limit: pageSize,
    offset,
    ...(status ? { status } : {}),
    ...(search ? { search } : {}),
  };
  const jobs = useApi((client, signal) => client.jobs.list(query, { signal }), [status, search, offset]);
  const page = jobs.data;
  usePolling(page?.data.some((job) => job.status === "processing") ?? false, 1500, jobs.reload);

  const submitSearch = (event: Event) => {
    event.preventDefault();
    setOffset(0);
    setSearch(searchText.trim());
  };
  return (
    <>
      <div class="heading">
        <h1>Jobs</h1>
        <Link to="/jobs/new" class="button">
          New job
        </Link>
      </div>
      <form class="toolbar" onSubmit={submitSearch} role="search">
        <div class="field">
          <label for="job-status">Status</label>
          <select
            id="job-status"
            value={status}
            onChange={(event) => {
              setOffset(0);
              setStatus(event.currentTarget.value as StatusFilter | "");
            }}
          >
            {filters.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="job-search">Search</label>
          <input
            id="job-search"
            type="search"
            placeholder="Job id, video id or YouTube id"
            value={searchText}
            onInput={(event) => setSearchText(event.currentTarget.value)}
          />
        </div>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={jobs.error} />
      {!page && jobs.loading && <Loading what="jobs" />}
      {page && page.data.length === 0 && (
        <Empty>
          {search || status
            ? "No job matches."
            : "No jobs yet. Submit one with New job, POST /v1, the client or the vidrows command."}
        </Empty>
      )}
      {page && page.data.length > 0 && (
        <>
          <TableScroll label="Jobs">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Job</th>
                  <th scope="col">Status</th>
                  <th scope="col">Schema</th>
                  <th scope="col">Videos</th>
                  <th scope="col">Progress</th>
                  <th scope="col">Credits</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((job) => (
                  <tr key={job.job_id} data-job={job.job_id}>
                    <td data-label="Job">
                      <Link to={`/jobs/${encodeURIComponent(job.job_id)}`}>
                        <code>{job.job_id}</code>
                      </Link>
                    </td>
                    <td data-label="Status">
                      <JobStatus status={shownStatus(job)} />
                    </td>
                    <td data-label="Schema">{job.schema}</td>
                    <td data-label="Videos">{formatNumber(job.videos)}</td>
                    <td data-label="Progress">
                      <JobProgress
                        counts={job.counts}
                        videos={job.videos}
                        status={shownStatus(job)}
                        label={`Progress of ${job.job_id}`}
                      />
                    </td>
                    <td data-label="Credits">{formatNumber(job.credits_charged)}</td>
                    <td data-label="Created">
                      <Timestamp value={job.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager
            label="Pages of jobs"
            offset={offset}
            pageSize={pageSize}
            shown={page.data.length}
            total={page.pagination.total}
            hasMore={page.pagination.has_more}
            onOffset={setOffset}
          />
        </>
      )}
    </>
  );
}
