// Reading jobs: the paged list (never rows) and the single read that hands the rows over once.
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { MaybePromise } from "../concurrency/maybe-promise.js";
import { ApiError } from "../http/api-errors.js";
import type { Dialect, Store, WriteStamp } from "../store/database.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import { StampedCache } from "../store/stamped-cache.js";
import type { Database, JobRow, WorkspaceRow } from "../store/tables.js";
import {
  countsOf,
  type JobListItem,
  type JobRead,
  type JobViewRow,
  jobListItem,
  jobViewColumns,
  type SettledStatus,
  type VideoViewRow,
  videoResult,
  videoViewColumns,
} from "./views.js";

type ReadJobRow = JobViewRow & Pick<JobRow, "handed_over_at">;
type JobCounters = Pick<
  WorkspaceRow,
  "jobs_queued" | "jobs_processing" | "jobs_done" | "jobs_failed" | "jobs_with_failures"
>;

/** Reads of jobs with more videos than this are not remembered: their answers are large. */
const rememberedJobVideos = 200;

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

/** The pattern that matches every value starting with `prefix`, for `startsWith` below. */
function prefixPattern(dialect: Dialect, prefix: string): string {
  return dialect === "postgres" ? `${prefix.replace(/_/g, "\\_")}%` : `${prefix}*`;
}

/**
 * A prefix match that is exact about case and can use an index. PostgreSQL's LIKE is case-sensitive;
 * SQLite's LIKE is not, but its GLOB is. Searches are limited to id characters, in which GLOB has no
 * wildcards and LIKE only `_`, escaped by `prefixPattern`.
 */
function startsWith(dialect: Dialect, column: string, pattern: string) {
  return dialect === "postgres"
    ? sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`
    : sql<boolean>`${sql.ref(column)} glob ${pattern}`;
}

/**
 * Whether the JSON array of strings in `column` has an element starting with the prefix `pattern`
 * (from `prefixPattern`) matches: each element starts right after a double quote, which ids never hold.
 */
function containsElementStartingWith(dialect: Dialect, column: string, pattern: string) {
  return dialect === "postgres"
    ? sql<boolean>`${sql.ref(column)} like ('%"' || ${pattern}) escape '\\'`
    : sql<boolean>`${sql.ref(column)} glob ('*"' || ${pattern})`;
}

type Filtered = SelectQueryBuilder<Database, "jobs", object>;

/** One kind of list page (a filter, with or without a search): its rows, and its total. */
interface ListQueries {
  page(workspaceId: string, pattern: string, limit: number, offset: number): Promise<JobViewRow[]>;
  total(workspaceId: string, pattern: string): Promise<number>;
}

export class JobReads {
  private readonly listQueries = new Map<string, ListQueries>();
  // Reads and pages are remembered until the next write to the store (on SQLite; see StampedCache).
  private readonly reads: StampedCache<JobReadOutcome>;
  private readonly pages: StampedCache<JobPage>;
  private readonly jobById: PreparedQuery<[jobId: string, workspaceId: string], ReadJobRow>;
  private readonly videosOfJob: PreparedQuery<[jobId: string], VideoViewRow>;
  private readonly counters: PreparedQuery<[workspaceId: string], JobCounters>;

  constructor(private readonly store: Store) {
    // Bounded so that what is remembered stays within tens of MB: at most 256 answers of each kind,
    // and reads only of jobs small enough that their answer is (see `rememberedJobVideos`).
    this.reads = new StampedCache(store, 256);
    this.pages = new StampedCache(store, 256);
    this.jobById = prepareQuery(store.db, 2, (db, jobId, workspaceId) =>
      db
        .selectFrom("jobs")
        .select([...jobViewColumns, "handed_over_at"])
        .where("id", "=", jobId)
        .where("workspace_id", "=", workspaceId),
    );
    this.videosOfJob = prepareQuery(store.db, 1, (db, jobId) =>
      db.selectFrom("videos").select(videoViewColumns).where("job_id", "=", jobId).orderBy("position"),
    );
    this.counters = prepareQuery(store.db, 1, (db, workspaceId) =>
      db
        .selectFrom("workspaces")
        .select(["jobs_queued", "jobs_processing", "jobs_done", "jobs_failed", "jobs_with_failures"])
        .where("id", "=", workspaceId),
    );
  }

  list(workspaceId: string, query: ListQuery, stamp?: WriteStamp): MaybePromise<JobPage> {
    const key = `${workspaceId}:${query.status}:${query.search}:${query.limit}:${query.offset}`;
    return this.pages.get(key, async () => ({ value: await this.listNow(workspaceId, query) }), { stamp });
  }

  private async listNow(workspaceId: string, query: ListQuery): Promise<JobPage> {
    const queries = this.listQueriesFor(query.status, query.search !== undefined);
    const pattern = query.search === undefined ? "" : prefixPattern(this.store.dialect, query.search);
    const rows = await queries.page(workspaceId, pattern, query.limit, query.offset);
    const total = await queries.total(workspaceId, pattern);
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

  /** The prepared queries of a kind of page, made on first use. */
  private listQueriesFor(status: ListFilter | undefined, searching: boolean): ListQueries {
    const kind = `${status ?? "all"}:${searching}`;
    let queries = this.listQueries.get(kind);
    if (queries) return queries;
    const { db } = this.store;
    const filtered = (from: Kysely<Database>, workspaceId: string): Filtered => {
      let q = from.selectFrom("jobs").where("workspace_id", "=", workspaceId);
      if (status === "running") q = q.where("status", "=", "processing");
      if (status === "succeeded") q = q.where("status", "=", "done");
      if (status === "failed") q = q.where("has_failures", "=", 1);
      return q;
    };
    if (searching) {
      const matching = (from: Kysely<Database>, workspaceId: string, pattern: string) =>
        filtered(from, workspaceId).where((eb) =>
          eb("jobs.id", "in", this.jobsMatching(eb, workspaceId, pattern)),
        );
      const page = prepareQuery<[string, string, number, number], JobViewRow>(
        db,
        4,
        (from, workspaceId, pattern, limit, offset) =>
          matching(from, workspaceId, pattern)
            .select(jobViewColumns)
            .orderBy("id", "desc")
            .limit(limit)
            .offset(offset),
      );
      const total = prepareQuery<[string, string], { n: number | string }>(
        db,
        2,
        (from, workspaceId, pattern) =>
          matching(from, workspaceId, pattern).select((eb) => eb.fn.countAll<number>().as("n")),
      );
      queries = {
        page: (workspaceId, pattern, limit, offset) => page.rows(db, workspaceId, pattern, limit, offset),
        total: async (workspaceId, pattern) => Number((await total.first(db, workspaceId, pattern))?.n ?? 0),
      };
    } else {
      const page = prepareQuery<[string, number, number], JobViewRow>(
        db,
        3,
        (from, workspaceId, limit, offset) =>
          filtered(from, workspaceId)
            .select(jobViewColumns)
            .orderBy("id", "desc")
            .limit(limit)
            .offset(offset),
      );
      queries = {
        page: (workspaceId, _pattern, limit, offset) => page.rows(db, workspaceId, limit, offset),
        total: (workspaceId) => this.totalFromCounters(workspaceId, status),
      };
    }
    this.listQueries.set(kind, queries);
    return queries;
  }

  /**
   * Ids of the workspace's jobs whose id, or one of whose videos' ids or platform ids, starts with
   * the prefix `pattern` matches. Prefix lookups joined by UNION, each on an index of its own; an OR
   * across them would make the database read every job of the workspace. A job whose videos a worker
   * has not yet admitted to the queue is found by its admission row's list of platform ids, read for
   * the workspace's waiting jobs only (its videos have no `vid_` ids yet).
   */
  private jobsMatching(eb: ExpressionBuilder<Database, "jobs">, workspaceId: string, pattern: string) {
    const { dialect } = this.store;
    const videosWhere = (column: "videos.id" | "videos.platform_video_id") =>
      eb
        .selectFrom("videos")
        .select("videos.job_id as id")
        .where("videos.workspace_id", "=", workspaceId)
        .where(startsWith(dialect, column, pattern));
    return eb
      .selectFrom("jobs as matching")
      .select("matching.id as id")
      .where("matching.workspace_id", "=", workspaceId)
      .where(startsWith(dialect, "matching.id", pattern))
      .union(videosWhere("videos.id"))
      .union(videosWhere("videos.platform_video_id"))
      .union(
        eb
          .selectFrom("job_admissions")
          .select("job_admissions.job_id as id")
          .where("job_admissions.workspace_id", "=", workspaceId)
          .where(containsElementStartingWith(dialect, "job_admissions.platform_video_ids", pattern)),
      );
  }

  /** Totals without a search come from the workspace's counters, so paging costs the same at any size. */
  private async totalFromCounters(workspaceId: string, status: ListFilter | undefined): Promise<number> {
    const w = await this.counters.first(this.store.db, workspaceId);
    if (!w) throw new Error(`Workspace ${workspaceId} has no row.`);
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

  /**
   * A job as its owner sees it now. Exactly one read of a settled job takes the rows (see
   * `takeHandover`); other answers are remembered until the next write to the store.
   */
  read(workspaceId: string, jobId: string, stamp?: WriteStamp): MaybePromise<JobReadOutcome> {
    return this.reads.get(
      `${workspaceId}:${jobId}`,
      async () => {
        const outcome = await this.readNow(workspaceId, jobId);
        const small = outcome.body.videos <= rememberedJobVideos;
        return { value: outcome, remember: small && outcome.restoreHandover === undefined };
      },
      { stamp },
    );
  }

  private async readNow(workspaceId: string, jobId: string): Promise<JobReadOutcome> {
    const job = await this.jobById.first(this.store.db, jobId, workspaceId);
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
    const videos = await this.videosOfJob.rows(this.store.db, job.id);
    return { body: this.settledBody(job, videos, false) };
  }

  private settledBody(job: JobViewRow, videos: VideoViewRow[], withRows: boolean): JobRead {
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
  private async takeHandover(job: JobViewRow): Promise<JobReadOutcome | undefined> {
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
