// vr.jobs: submit, list and page through jobs, follow one's progress and videos without spending it, take its rows, cancel one.
import type {
  CancelledJob,
  JobCreated,
  JobListItem,
  JobListQuery,
  JobPage,
  JobRead,
  JobVideoList,
  SubmitJobBody,
} from "../api-types.js";
import { VidrowsError } from "../errors.js";
import { sleep } from "../retry-policy.js";
import type { RequestOptions, Transport } from "../transport.js";

export interface SubmitOptions extends RequestOptions {
  /**
   * Makes retries (the client's, and yours) safe: the same key and body within 24 hours answer the
   * first job again and create nothing. Generated when not given.
   */
  readonly idempotencyKey?: string;
}

export interface WaitOptions {
  /** Called with the job's counts and status after every poll. */
  readonly onProgress?: (progress: JobListItem) => void;
  /** Stops waiting (the job goes on) with a VidrowsError `aborted`. */
  readonly signal?: AbortSignal;
  /** Between polls; default 1000. */
  readonly pollIntervalMs?: number;
}

/** What the server accepts as `search`: the progress of another id is "not found" without asking. */
const searchable = /^[A-Za-z0-9_-]{1,64}$/;

export class Jobs {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1`. Always sent with an `Idempotency-Key`, so the client's retries never make a second job. */
  submit(body: SubmitJobBody, options: SubmitOptions = {}): Promise<JobCreated> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    return this.transport.send({
      method: "POST",
      path: "/v1",
      body,
      headers: { "idempotency-key": idempotencyKey },
      retry: "repeatable",
      signal: options.signal,
    });
  }

  /** `GET /v1`: one page, newest first. Lists never carry rows. */
  list(query: JobListQuery = {}, options: RequestOptions = {}): Promise<JobPage> {
    return this.transport.send({
      method: "GET",
      path: "/v1",
      query,
      retry: "repeatable",
      signal: options.signal,
    });
  }

  /**
   * Every job matching `query`, page after page. Jobs submitted meanwhile push older ones to later
   * pages; a job seen once is not yielded again.
   */
  async *iterate(query: Omit<JobListQuery, "offset" | "limit"> = {}, options: RequestOptions = {}) {
    const seen = new Set<string>();
    for (let offset = 0; ;) {
      const page = await this.list({ ...query, limit: 100, offset }, options);
      for (const job of page.data) {
        if (seen.has(job.job_id)) continue;
        seen.add(job.job_id);
        yield job;
      }
      if (!page.pagination.has_more || page.data.length === 0) return;
      offset += page.data.length;
    }
  }

  /**
   * The job's status and counts, from the list searched by its id: the list never carries rows, so this
   * never spends the one-time handover, however often it is called.
   */
  async progress(jobId: string, options: RequestOptions = {}): Promise<JobListItem> {
    const notFound = (requestId: string | null) =>
      new VidrowsError({
        code: "job_not_found",
        status: 404,
        param: "job_id",
        requestId,
        message: `No job ${jobId} in this workspace.`,
      });
    if (!searchable.test(jobId)) throw notFound(null);
    const page = await this.list({ search: jobId, limit: 100 }, options);
    const job = page.data.find((item) => item.job_id === jobId);
    if (!job) throw notFound(null);
    return job;
  }

  /**
   * `GET /v1/{job_id}/videos`: each video's status, and once settled its credits with its `usage` or
   * `error`, in submission order, and `handed_over_at`. It never carries rows and never takes them, so
   * it can be called as often as wanted, before and after the job settles.
   */
  videos(jobId: string, options: RequestOptions = {}): Promise<JobVideoList> {
    return this.transport.send({
      method: "GET",
      path: `/v1/${encodeURIComponent(jobId)}/videos`,
      retry: "repeatable",
      signal: options.signal,
    });
  }

  /** Polls `progress` until the job has settled and answers its last progress; the rows stay in place. */
  async wait(jobId: string, options: WaitOptions = {}): Promise<JobListItem> {
    const interval = options.pollIntervalMs ?? 1000;
    for (;;) {
      const progress = await this.progress(jobId, { signal: options.signal });
      options.onProgress?.(progress);
      if (progress.status !== "processing") return progress;
      try {
        await sleep(interval, options.signal);
      } catch (cause) {
        throw new VidrowsError({ code: "aborted", message: `Stopped waiting for ${jobId}.`, cause });
      }
    }
  }

  /**
   * `GET /v1/{job_id}`. On a settled job, the first call receives the rows and the server deletes them:
   * later calls see `rows: null`. A call while another read's answer is carrying them sees `rows: null`
   * with `rows_held: true`: they may come back, so call again in a moment (`rowsState` tells the
   * cases apart). On a running job it answers counts and spends nothing. It is retried
   * only when the server provably did not answer (see RetryMode `once`), never after a reply may have
   * carried the rows.
   */
  takeRows(jobId: string, options: RequestOptions = {}): Promise<JobRead> {
    return this.transport.send({
      method: "GET",
      path: `/v1/${encodeURIComponent(jobId)}`,
      retry: "once",
      signal: options.signal,
    });
  }

  /**
   * `POST /v1/{job_id}/cancel`. Videos not yet started fail with `cancelled` at once, those in flight as
   * soon as their worker sees it; the job then settles as any job does. Repeating it while the job runs
   * answers the same, so it is retried like a read; once the job has settled, `job_settled` (409).
   */
  cancel(jobId: string, options: RequestOptions = {}): Promise<CancelledJob> {
    return this.transport.send({
      method: "POST",
      path: `/v1/${encodeURIComponent(jobId)}/cancel`,
      retry: "repeatable",
      signal: options.signal,
    });
  }
}
