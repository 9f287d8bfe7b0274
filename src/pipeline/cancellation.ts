// Cancelling a job: its videos not yet started fail at once; workers abandon the ones in flight within 2 s.
import { uploadIdOf } from "../domain/upload-videos.js";
import type { UploadFiles } from "./upload-words.js";
import { randomBytes } from "node:crypto";
import type { PlanTable } from "../domain/plans.js";
import { ApiError } from "../http/api-errors.js";
import type { Store } from "../store/database.js";
import { admitJobNow } from "./admissions.js";
import { countStartedVideos } from "./claims.js";
import type { VideoOutcome } from "./video-outcomes.js";
import { SettlementQueue } from "./settlement-queue.js";

/** How a video of a cancelled job ends: never charged, and trying it again would only be cancelled again. */
export const cancelledOutcome: VideoOutcome = {
  kind: "failed",
  code: "cancelled",
  message: "The job was cancelled before this video was done.",
  retryable: false,
};

/** The job as the cancellation left it, before its waiting videos settled: the running read's counts. */
export interface CancelledJob {
  readonly jobId: string;
  readonly videoCount: number;
  readonly counts: { queued: number; processing: number; done: number; failed: number };
}

/**
 * A cancellation holds the job's waiting videos this long before settling them: if the process dies
 * in between, a worker takes them over when it runs out and fails them as `cancelled` (the job's
 * `cancelled_at` is committed with the claim).
 */
const cancellationLeaseMs = 60_000;

export class JobCancellation {
  constructor(
    private readonly store: Store,
    private readonly plans: PlanTable,
    /** The uploads jobs took: a cancelled video's file goes as it settles (upload-words.ts). */
    private readonly uploads?: UploadFiles,
  ) {}

  /**
   * Marks the job cancelled and settles its videos not yet started as `cancelled`, through the one
   * settlement path (so its counts, usage counters and webhook events are those of any settlement).
   * Videos in flight are left to their workers, which see the mark within about a second
   * (cancellation-watch.ts) and abort their model requests.
   * Idempotent while the job runs; 409 `job_settled` once it has settled.
   */
  async cancel(workspaceId: string, jobId: string, now = Date.now()): Promise<CancelledJob> {
    const job = await this.store.db
      .selectFrom("jobs")
      .select(["status"])
      .where("id", "=", jobId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (!job) throw new ApiError("job_not_found", `No job ${jobId} in this workspace.`, "job_id");
    if (job.status !== "processing") throw settledError(jobId, job.status);

    // The canceller takes the waiting videos as a worker would claim them, in a claim's lock order:
    // the admission, the videos, then the job and the workspace's usage.
    const owner = `cancel_${randomBytes(8).toString("hex")}`;
    const { taken, cancelled } = await this.store.db.transaction().execute(async (trx) => {
      await admitJobNow(this.store, trx, jobId, now);
      const taken = await trx
        .updateTable("videos")
        .set((eb) => ({
          status: "processing",
          lease_owner: owner,
          lease_expires_at: now + cancellationLeaseMs,
          claims: eb("claims", "+", 1),
        }))
        .where("job_id", "=", jobId)
        .where("status", "=", "queued")
        .returning(["id", "job_id", "workspace_id", "platform_video_id"])
        .execute();
      await countStartedVideos(this.store, trx, taken);
      const cancelled = await trx
        .updateTable("jobs")
        .set((eb) => ({ cancelled_at: eb.fn.coalesce("cancelled_at", eb.val(now)) }))
        .where("id", "=", jobId)
        .where("status", "=", "processing")
        .returning(["video_count", "queued_count", "processing_count", "done_count", "failed_count"])
        .executeTakeFirst();
      return { taken, cancelled };
    });
    // The last video settled between the look and the mark: nothing was taken, nothing to cancel.
    if (!cancelled) throw settledError(jobId, "settled");

    const settlements = new SettlementQueue(this.store, this.plans, owner);
    await Promise.all(
      taken.map((video) =>
        settlements.settle({ rowId: video.id, jobId, workspaceId: video.workspace_id }, cancelledOutcome),
      ),
    );
    for (const video of taken) {
      const uploadId = uploadIdOf(video.platform_video_id);
      // A removal that fails here is the uploads' sweep's to redo (it finds settled videos' uploads).
      if (uploadId !== null) await this.uploads?.settled(uploadId).catch(() => {});
    }
    return {
      jobId,
      videoCount: cancelled.video_count,
      counts: {
        queued: cancelled.queued_count,
        processing: cancelled.processing_count,
        done: cancelled.done_count,
        failed: cancelled.failed_count,
      },
    };
  }
}

function settledError(jobId: string, status: string): ApiError {
  return new ApiError(
    "job_settled",
    `Job ${jobId} has already settled (${status}); only a running job can be cancelled.`,
    "job_id",
  );
}
