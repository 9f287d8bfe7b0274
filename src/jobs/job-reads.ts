// Reading jobs: the paged list (never rows) and the single read that hands the rows over once.
import { type ExpressionBuilder, sql } from "kysely";
import { ApiError } from "../errors.js";
import type { Dialect, Store } from "../store/database.js";
import type { Database, JobRow, VideoRow } from "../store/tables.js";
import {
  countsOf,
  type JobListItem,
  type JobRead,
  jobListItem,
  type SettledStatus,
  videoResult,
} from "./views.js";

export type ListFilter = "running" | "succeeded" | "failed";

export interface ListQuery {
  status?: ListFilter;
  search?: string;
  limit: number;
  offset: number;
}

export interface JobPage {
  data: JobListItem[];
  pagination: { total: number; limit: number; offset: number; has_more: boolean };
}

/** A read's answer, and what to do once it is known whether the response reached the client. */
export interface JobReadOutcome {
  body: JobRead;
  /** Present when this read took the rows: call it if the response could not be delivered. */
  restoreHandover?: () => Promise<void>;
}

/**
 * A prefix match that is exact about case and can use an index. PostgreSQL's LIKE is case-sensitive;
 * SQLite's LIKE is not, but its GLOB is. Searches are limited to id characters, in which GLOB has no
 * wildcards and LIKE only `_`, escaped here.
 */
function startsWith(dialect: Dialect, column: string, prefix: string) {
  return dialect === "postgres"
    ? sql<boolean>`${sql.ref(column)} like ${`${prefix.replace(/_/g, "\\_")}%`} escape '\\'`
    : sql<boolean>`${sql.ref(column)} glob ${`${prefix}*`}`;
}

export class JobReads {
  constructor(private readonly store: Store) {}

  async list(workspaceId: string, query: ListQuery): Promise<JobPage> {
    const filtered = this.store.db
      .selectFrom("jobs")
      .where("workspace_id", "=", workspaceId)
      .$if(query.status === "running", (q) => q.where("status", "=", "processing"))
      .$if(query.status === "succeeded", (q) => q.where("status", "=", "done"))
      .$if(query.status === "failed", (q) => q.where("has_failures", "=", 1))
      .$if(query.search !== undefined, (q) =>
        q.where((eb: ExpressionBuilder<Database, "jobs">) =>
          eb("jobs.id", "in", this.jobsMatching(eb, workspaceId, query.search as string)),
        ),
      );
    const rows = await filtered
      .selectAll()
      .orderBy("id", "desc")
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    const total =
      query.search === undefined
        ? await this.totalFromCounters(workspaceId, query.status)
        : Number(
            (await filtered.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n,
          );
    return {
      data: rows.map(jobListItem),
      pagination: {
        total,
        limit: query.limit,
        offset: query.offset,
        has_more: query.offset + rows.length < total,
      },
    };
  }

  /**
   * Ids of the workspace's jobs whose id, or one of whose videos' ids or platform ids, starts with
   * `prefix`. Three prefix lookups joined by UNION, each on an index of its own; an OR across them
   * would make the database read every job of the workspace.
   */
  private jobsMatching(eb: ExpressionBuilder<Database, "jobs">, workspaceId: string, prefix: string) {
    const { dialect } = this.store;
    const videosWhere = (column: "videos.id" | "videos.platform_video_id") =>
      eb
        .selectFrom("videos")
        .select("videos.job_id as id")
        .where("videos.workspace_id", "=", workspaceId)
        .where(startsWith(dialect, column, prefix));
    return eb
      .selectFrom("jobs as matching")
      .select("matching.id as id")
      .where("matching.workspace_id", "=", workspaceId)
      .where(startsWith(dialect, "matching.id", prefix))
      .union(videosWhere("videos.id"))
      .union(videosWhere("videos.platform_video_id"));
  }

  /** Totals without a search come from the workspace's counters, so paging costs the same at any size. */
  private async totalFromCounters(workspaceId: string, status: ListFilter | undefined): Promise<number> {
    const w = await this.store.db
      .selectFrom("workspaces")
      .select(["jobs_queued", "jobs_processing", "jobs_done", "jobs_failed", "jobs_with_failures"])
      .where("id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    switch (status) {
      case "running":
        return w.jobs_queued + w.jobs_processing;
      case "succeeded":
        return w.jobs_done;
      case "failed":
        return w.jobs_with_failures;
      default:
        return w.jobs_queued + w.jobs_processing + w.jobs_done + w.jobs_failed;
    }
  }

  async read(workspaceId: string, jobId: string): Promise<JobReadOutcome> {
    const job = await this.store.db
      .selectFrom("jobs")
      .selectAll()
      .where("id", "=", jobId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
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
    if (job.handed_over_at === null) {
      const taken = await this.takeHandover(job);
      if (taken) return taken;
    }
    const videos = await this.videosOf(job.id);
    return { body: this.settledBody(job, videos, false) };
  }

  private videosOf(jobId: string): Promise<VideoRow[]> {
    return this.store.db
      .selectFrom("videos")
      .selectAll()
      .where("job_id", "=", jobId)
      .orderBy("position")
      .execute();
  }

  private settledBody(job: JobRow, videos: VideoRow[], withRows: boolean): JobRead {
    return {
      job_id: job.id,
      // Only settled jobs reach here (the read answers running ones before).
      status: job.status as SettledStatus,
      videos: job.video_count,
      credits_charged: job.credits_charged,
      counts: countsOf(job),
      results: videos.map((video) => videoResult(video, withRows)),
    };
  }

  /**
   * Exactly one read wins the conditional update and receives the rows; in the same transaction
   * the rows and the submitted URLs are deleted. If that response then cannot be delivered, the
   * caller puts them back with `restoreHandover`, so an undelivered read does not use the handover up.
   */
  private async takeHandover(job: JobRow): Promise<JobReadOutcome | undefined> {
    const takenAt = Date.now();
    const videos = await this.store.db.transaction().execute(async (trx) => {
      const won = await trx
        .updateTable("jobs")
        .set({ handed_over_at: takenAt })
        .where("id", "=", job.id)
        .where("handed_over_at", "is", null)
        .executeTakeFirst();
      if (won.numUpdatedRows === 0n) return undefined;
      const held = await trx
        .selectFrom("videos")
        .selectAll()
        .where("job_id", "=", job.id)
        .orderBy("position")
        .execute();
      await trx
        .updateTable("videos")
        .set({ rows: null, submitted_url: null })
        .where("job_id", "=", job.id)
        .execute();
      return held;
    });
    if (!videos) return undefined;
    return {
      body: this.settledBody(job, videos, true),
      restoreHandover: () =>
        this.store.db.transaction().execute(async (trx) => {
          const undone = await trx
            .updateTable("jobs")
            .set({ handed_over_at: null })
            .where("id", "=", job.id)
            .where("handed_over_at", "=", takenAt)
            .executeTakeFirst();
          if (undone.numUpdatedRows === 0n) return;
          for (const video of videos) {
            await trx
              .updateTable("videos")
              .set({ rows: video.rows, submitted_url: video.submitted_url })
              .where("id", "=", video.id)
              .execute();
          }
        }),
    };
  }
}
