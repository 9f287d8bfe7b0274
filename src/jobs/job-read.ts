// Reading one job: counts while it runs; once settled, its results, with the rows in exactly one read.
import { columnsOf, type SchemaDefinition } from "../domain/schema-definition.js";
import { ApiError } from "../http/api-errors.js";
import type { WorkspaceScope } from "../http/request-context.js";
import type { Store } from "../store/database.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { HandoverClaim, Handovers } from "./handover.js";
import type { JobRead, SettledStatus } from "./job-schemas.js";
import {
  countsOf,
  type JobViewRow,
  jobViewColumns,
  type VideoViewRow,
  videoResult,
  videoViewColumns,
} from "./views.js";

/** A read's answer, and the claim on the rows it carries, to be settled once its response is written or not. */
export interface JobReadOutcome {
  body: JobRead;
  /** Present when this read carries the rows (see jobs/handover-delivery.ts). */
  handover?: HandoverClaim;
  /**
   * The job settled and its rows are not yet handed over: the answer can change with no write at all,
   * when another read's claim lapses, so it must not be remembered.
   */
  rowsHeld?: true;
}

/** `handOver: false` for a read that never takes the rows (HEAD): it answers as after the handover. */
export interface JobReadOptions {
  readonly handOver: boolean;
}

export class JobReads {
  private readonly jobById: PreparedQuery<{ jobId: string; workspaceId: string }, JobWithSchema>;
  private readonly videosOfJob: PreparedQuery<{ jobId: string }, VideoViewRow>;

  constructor(
    private readonly store: Store,
    private readonly handovers: Handovers,
  ) {
    this.jobById = prepareQuery(store.db, (db, { jobId, workspaceId }) =>
      db
        .selectFrom("jobs")
        .select([...jobViewColumns, "schema_definition"])
        .where("id", "=", jobId)
        .where("workspace_id", "=", workspaceId),
    );
    this.videosOfJob = prepareQuery(store.db, (db, { jobId }) =>
      db.selectFrom("videos").select(videoViewColumns).where("job_id", "=", jobId).orderBy("position"),
    );
  }

  /** A job as its owner sees it now. Exactly one read of a settled job carries the rows (see jobs/handover.ts). */
  async read(context: WorkspaceScope, jobId: string, options: JobReadOptions): Promise<JobReadOutcome> {
    const { workspaceId } = context;
    const job = await this.jobById.first(this.store.db, { jobId, workspaceId });
    if (!job) throw new ApiError("job_not_found", `No job ${jobId} in this workspace.`, "job_id");
    if (job.status === "processing") {
      return {
        body: {
          job_id: job.id,
          status: "processing",
          videos: job.video_count,
          counts: countsOf(job),
          results: null,
        },
      };
    }
    let heldByAnother = false;
    if (job.handed_over_at === null && options.handOver) {
      const claim = await this.handovers.claim(job.id);
      if (!("refused" in claim)) {
        return { body: settledBody(job, claim.videos, { withRows: true }), handover: claim, rowsHeld: true };
      }
      heldByAnother = claim.refused === "held";
    }
    const videos = await this.videosOfJob.rows(this.store.db, { jobId: job.id });
    const body = settledBody(job, videos, { withRows: false, heldByAnother });
    return job.handed_over_at === null ? { body, rowsHeld: true } : { body };
  }
}

/** A job as the read selects it: its views' columns and the schema it ran, as JSON text. */
type JobWithSchema = JobViewRow & { schema_definition: string };

/**
 * A settled job's read: `withRows` for the one read that hands the rows over; `heldByAnother` when
 * another read's answer holds them now (they may come back to a later read).
 */
function settledBody(
  job: JobWithSchema,
  videos: VideoViewRow[],
  { withRows, heldByAnother = false }: { withRows: boolean; heldByAnother?: boolean },
): JobRead {
  return {
    job_id: job.id,
    // Only settled jobs reach here (the read answers running ones before).
    status: job.status as SettledStatus,
    videos: job.video_count,
    credits_charged: job.credits_charged,
    // The rows' keys, also when there are no rows (a CSV's header needs them).
    columns: columnsOf(JSON.parse(job.schema_definition) as SchemaDefinition),
    counts: countsOf(job),
    results: videos.map((video) => videoResult(video, withRows)),
    rows_held: heldByAnother,
  };
}
