// A job's videos as they stand, for following a job video by video: never rows or URLs, so it takes nothing.
import { formatTimestamp } from "../domain/timestamps.js";
import { ApiError } from "../http/api-errors.js";
import type { WorkspaceScope } from "../http/request-context.js";
import type { Store } from "../store/database.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { JobRow } from "../store/tables.js";
import type { JobVideoList, VideoProgress } from "./job-video-schemas.js";
import { type VideoViewRow, videoProgress, videoViewColumns } from "./views.js";

type JobOfVideos = Pick<JobRow, "id" | "handed_over_at">;

export class JobVideos {
  private readonly jobById: PreparedQuery<{ jobId: string; workspaceId: string }, JobOfVideos>;
  private readonly waitingVideos: PreparedQuery<{ jobId: string }, { platform_video_ids: string }>;
  private readonly videosOfJob: PreparedQuery<{ jobId: string }, VideoViewRow>;

  constructor(private readonly store: Store) {
    this.jobById = prepareQuery(store.db, (db, { jobId, workspaceId }) =>
      db
        .selectFrom("jobs")
        .select(["id", "handed_over_at"])
        .where("id", "=", jobId)
        .where("workspace_id", "=", workspaceId),
    );
    // Only the platform ids: the admission row also holds the submitted URLs, which this never shows.
    this.waitingVideos = prepareQuery(store.db, (db, { jobId }) =>
      db.selectFrom("job_admissions").select("platform_video_ids").where("job_id", "=", jobId),
    );
    this.videosOfJob = prepareQuery(store.db, (db, { jobId }) =>
      db.selectFrom("videos").select(videoViewColumns).where("job_id", "=", jobId).orderBy("position"),
    );
  }

  /** The job's videos in submission order, each with its status, and its cost and outcome once settled. */
  async list(context: WorkspaceScope, jobId: string): Promise<JobVideoList> {
    const job = await this.jobById.first(this.store.db, { jobId, workspaceId: context.workspaceId });
    if (!job) throw new ApiError("job_not_found", `No job ${jobId} in this workspace.`, "job_id");
    // A job's videos become rows of `videos` when a worker admits it (pipeline/admissions.ts), all at
    // once, deleting its admission row. The admission is read first: read after the videos, a job
    // admitted in between would be in neither.
    const waiting = await this.waitingVideos.first(this.store.db, { jobId: job.id });
    const videos = await this.videosOfJob.rows(this.store.db, { jobId: job.id });
    const data =
      videos.length > 0 || !waiting
        ? videos.map(videoProgress)
        : (JSON.parse(waiting.platform_video_ids) as string[]).map((platformId): VideoProgress => ({
            id: null,
            video_id: platformId,
            status: "queued",
          }));
    return { data, handed_over_at: formatTimestamp(job.handed_over_at) };
  }
}
