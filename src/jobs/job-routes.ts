// `/v1`: submit a job, list jobs, read a job (the one-time handover of its rows), follow its videos, cancel it.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type MaybePromise, whenReady } from "../concurrency/maybe-promise.js";
import { callerOf, contextOf } from "../access/access-control.js";
import type { RequestContext } from "../http/request-context.js";
import { sendJsonAnswer } from "../http/json-answers.js";
import { errorAnswers, refTo } from "../http/common-schemas.js";
import { JobCreated, jobComponents, JobPage, JobRead, RunningJob } from "./job-schemas.js";
import { JobVideoList, jobVideoComponents } from "./job-video-schemas.js";
import type { Handovers } from "./handover.js";
import { DocumentedSubmitBody, JobIdParams, ListQuery, SubmitBody, SubmitHeaders } from "./job-requests.js";
import { deliverHandover } from "./handover-delivery.js";
import type { ListQuery as JobListQuery } from "./job-list.js";
import type { JobReadOptions, JobReadOutcome } from "./job-read.js";
import type { JobSubmission } from "./job-submission.js";

export interface JobRouteOptions {
  readonly submission: JobSubmission;
  /** The list and the read, answered at once when remembered (see remembered-reads.ts). */
  readonly pages: { list(context: RequestContext, query: JobListQuery): MaybePromise<JobPage> };
  readonly reads: {
    read(context: RequestContext, jobId: string, options: JobReadOptions): MaybePromise<JobReadOutcome>;
  };
  /** A job's videos as they stand (job-videos.ts): never rows, so any number of reads take nothing. */
  readonly videos: { list(context: RequestContext, jobId: string): Promise<JobVideoList> };
  /** Where a read that carries the rows settles its claim once its answer is written, or not. */
  readonly handovers: Handovers;
  /** Cancels a running job of the workspace (pipeline/cancellation.ts); answers its counts as it left them. */
  readonly cancellation: {
    cancel(
      workspaceId: string,
      jobId: string,
    ): Promise<{ jobId: string; videoCount: number; counts: RunningJob["counts"] }>;
  };
  /** Called after a job is stored, so a worker in this process can start at once. */
  readonly onSubmitted: () => void;
  /** Called after a job is cancelled, so a worker in this process abandons its videos at once. */
  readonly onCancelled: (jobId: string) => void;
}

export const jobRoutes: FastifyPluginAsyncTypebox<JobRouteOptions> = async (app, options) => {
  for (const schema of [...jobComponents, ...jobVideoComponents]) app.addSchema(schema);

  app.post(
    "/v1",
    {
      schema: {
        operationId: "submitJob",
        summary: "Submit a job",
        description:
          "Exactly one of `schema` and `schema_id`. 403 `plan_limit` past the plan's videos per job; 402 when credits cannot pay; 503 `extraction_unavailable` without a model.",
        tags: ["Jobs"],
        headers: SubmitHeaders,
        body: SubmitBody,
        response: {
          202: refTo(JobCreated, {
            description: "Accepted: the job runs in the background.",
            headers: { "Idempotent-Replayed": { type: "string" } },
          }),
          ...errorAnswers({
            body: true,
            codes: [
              "insufficient_credits",
              "hard_cap_reached",
              "plan_limit",
              "schema_not_found",
              "schema_version_not_found",
              "idempotency_conflict",
              "extraction_unavailable",
            ],
          }),
        },
      },
      // The document states "exactly one of `schema` and `schema_id`" as two bodies, for generated clients;
      // the validator keeps the one schema, whose messages name the field at fault.
      config: {
        swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: DocumentedSubmitBody }, url }),
      },
    },
    async (request, reply) => {
      const outcome = await options.submission.submit(
        callerOf(request),
        request.body,
        request.headers["idempotency-key"],
      );
      if (outcome.replayed) reply.header("idempotent-replayed", "true");
      else options.onSubmitted();
      return reply.code(202).send(outcome.body);
    },
  );

  app.get(
    "/v1",
    {
      schema: {
        operationId: "listJobs",
        summary: "List jobs",
        description: "Newest first. Never carries rows, so paging is safe.",
        tags: ["Jobs"],
        querystring: ListQuery,
        response: { 200: refTo(JobPage, { description: "A page of jobs." }), ...errorAnswers() },
      },
    },
    (request, reply) =>
      whenReady(options.pages.list(contextOf(request), request.query), (page) => {
        sendJsonAnswer(reply, page);
      }),
  );

  /** Sends a job's read; one that carries the rows completes the handover only once it is written whole. */
  const sendJobRead = (request: FastifyRequest, reply: FastifyReply, outcome: JobReadOutcome): void => {
    if (outcome.handover) deliverHandover(request, reply, options.handovers, outcome.handover);
    sendJsonAnswer(reply, outcome.body);
  };
  /** Reads the job (answered at once when remembered) and sends the read. */
  const readAndSend = (
    request: FastifyRequest,
    reply: FastifyReply,
    jobId: string,
    readOptions: JobReadOptions,
  ): MaybePromise<void> =>
    whenReady(options.reads.read(contextOf(request), jobId, readOptions), (outcome) =>
      sendJobRead(request, reply, outcome),
    );

  // Declared before the GET, so that Fastify does not make HEAD run the GET's handler (which would hand
  // the rows over into an answer that has no body).
  app.head(
    "/v1/:job_id",
    {
      schema: {
        operationId: "checkJob",
        summary: "Check a job (no handover)",
        description:
          "The status and headers a read would answer, without a body. Never hands the rows over and never deletes anything: `Content-Length` is that of a read without rows.",
        tags: ["Jobs"],
        params: JobIdParams,
        response: {
          200: refTo(JobRead, { description: "The job exists; a GET would answer with it." }),
          ...errorAnswers({ codes: ["job_not_found"] }),
        },
      },
      config: { swagger: { exposeHeadRoute: true } },
    },
    (request, reply) => readAndSend(request, reply, request.params.job_id, { handOver: false }),
  );

  app.get(
    "/v1/:job_id",
    {
      schema: {
        operationId: "readJob",
        summary: "Read a job",
        description:
          "While running: counts, `results: null`. The first read after the job settles carries the rows, each done video's with `sources` (where each row came from in the video), and deletes them from storage once the whole answer has been written to the connection; later reads have `rows: null`. A read whose answer could not be written whole (the client went away) leaves the rows for the next read; so does one whose server process died mid-answer, after at most 60 seconds. A whole answer whose connection is reset within about a second puts the rows back once per job: the next whole answer hands them over for good. A read that arrives while another read's answer holds the rows answers `rows: null` with `rows_held: true`: read again in a moment (`rows_held: false` with `rows: null` means they were handed over).",
        tags: ["Jobs"],
        params: JobIdParams,
        response: {
          200: refTo(JobRead, { description: "The job, running or settled." }),
          ...errorAnswers({ codes: ["job_not_found"] }),
        },
      },
    },
    (request, reply) => readAndSend(request, reply, request.params.job_id, { handOver: true }),
  );

  // Its HEAD is Fastify's, running this handler without sending the body: it takes nothing either.
  app.get(
    "/v1/:job_id/videos",
    {
      schema: {
        operationId: "listJobVideos",
        summary: "Follow a job's videos",
        description:
          "One item per video, in submission order: its status, and once settled its credits, with `usage` when done and `error` when failed. Never carries rows or submitted URLs and never hands anything over, before or after the job settles; `handed_over_at` says whether the rows were taken. `id` is null for the moment between the submission and a worker taking the job in.",
        tags: ["Jobs"],
        params: JobIdParams,
        response: {
          200: refTo(JobVideoList, { description: "The job's videos." }),
          ...errorAnswers({ codes: ["job_not_found"] }),
        },
      },
    },
    async (request, reply) => {
      sendJsonAnswer(reply, await options.videos.list(contextOf(request), request.params.job_id));
    },
  );

  app.post(
    "/v1/:job_id/cancel",
    {
      schema: {
        operationId: "cancelJob",
        summary: "Cancel a job",
        description:
          "Videos not yet started fail at once with `cancelled` (never charged); within 2 seconds of this answer, on every worker, no model request of the job is sent any more and those in flight are aborted: their videos fail with `cancelled` too, unless they settled first. Answers the running read's shape; the job then settles as any job does, with its webhooks. Cancelling again while it runs answers the same; once settled, 409 `job_settled`.",
        tags: ["Jobs"],
        params: JobIdParams,
        response: {
          200: refTo(RunningJob, {
            description: "Cancelled: the job's counts as the cancellation left them.",
          }),
          ...errorAnswers({ codes: ["job_not_found", "job_settled"] }),
        },
      },
    },
    async (request, reply) => {
      const job = await options.cancellation.cancel(contextOf(request).workspaceId, request.params.job_id);
      options.onCancelled(job.jobId);
      const body: RunningJob = {
        job_id: job.jobId,
        status: "processing",
        videos: job.videoCount,
        counts: job.counts,
        results: null,
      };
      sendJsonAnswer(reply, body);
    },
  );
};
