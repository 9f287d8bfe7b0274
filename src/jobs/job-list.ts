// The paged list of a workspace's jobs, newest first, filtered and searched; it never carries rows.
import type { Kysely, SelectQueryBuilder } from "kysely";
import type { WorkspaceScope } from "../http/request-context.js";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import { prepareQuery, type PreparedQuery } from "../store/prepared-query.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { jobsMatching } from "./job-search.js";
import type { JobPage } from "./job-schemas.js";
import { type JobViewRow, jobListItem, jobViewColumns } from "./views.js";

type JobCounters = Pick<
  WorkspaceRow,
  "jobs_queued" | "jobs_processing" | "jobs_done" | "jobs_failed" | "jobs_with_failures"
>;

export type ListFilter = "running" | "succeeded" | "failed";

export interface ListQuery {
  status?: ListFilter;
  search?: string;
  limit: number;
  offset: number;
}

type Filtered = SelectQueryBuilder<Database, "jobs", object>;

/** What a page of the list is asked with; `pattern` is the search's (empty without one). */
interface PageParams {
  workspaceId: string;
  pattern: string;
  limit: number;
  offset: number;
}

/** One kind of list page (a filter, with or without a search): its rows, and its total. */
interface ListQueries {
  page(params: PageParams): Promise<JobViewRow[]>;
  total(params: PageParams): Promise<number>;
}

export class JobPages {
  private readonly listQueries = new Map<string, ListQueries>();
  private readonly counters: PreparedQuery<{ workspaceId: string }, JobCounters>;

  constructor(private readonly store: Store) {
    this.counters = prepareQuery(store.db, (db, { workspaceId }) =>
      db
        .selectFrom("workspaces")
        .select(["jobs_queued", "jobs_processing", "jobs_done", "jobs_failed", "jobs_with_failures"])
        .where("id", "=", workspaceId),
    );
  }

  /** A page of the workspace's jobs, newest first. */
  async list(context: WorkspaceScope, query: ListQuery): Promise<JobPage> {
    const { workspaceId } = context;
    const queries = this.listQueriesFor(query.status, query.search !== undefined);
    const pattern =
      query.search === undefined
        ? ""
        : databaseSql(this.store.dialect).vocabulary.prefixPattern(query.search);
    const params = { workspaceId, pattern, limit: query.limit, offset: query.offset };
    const rows = await queries.page(params);
    const total = await queries.total(params);
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
    const { vocabulary } = databaseSql(this.store.dialect);
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
          eb("jobs.id", "in", jobsMatching(vocabulary, eb, workspaceId, pattern)),
        );
      // Planned for each pattern: a prefix can use the indexes only when the planner sees it.
      const unnamed = { named: false };
      const page = prepareQuery<PageParams, JobViewRow>(
        db,
        (from, { workspaceId, pattern, limit, offset }) =>
          matching(from, workspaceId, pattern)
            .select(jobViewColumns)
            .orderBy("id", "desc")
            .limit(limit)
            .offset(offset),
        unnamed,
      );
      const total = prepareQuery<Pick<PageParams, "workspaceId" | "pattern">, { n: number | string }>(
        db,
        (from, { workspaceId, pattern }) =>
          matching(from, workspaceId, pattern).select((eb) => eb.fn.countAll<number>().as("n")),
        unnamed,
      );
      queries = {
        page: (params) => page.rows(db, params),
        total: async (params) => Number((await total.first(db, params))?.n ?? 0),
      };
    } else {
      const page = prepareQuery<Omit<PageParams, "pattern">, JobViewRow>(
        db,
        (from, { workspaceId, limit, offset }) =>
          filtered(from, workspaceId)
            .select(jobViewColumns)
            .orderBy("id", "desc")
            .limit(limit)
            .offset(offset),
      );
      queries = {
        page: (params) => page.rows(db, params),
        total: ({ workspaceId }) => this.totalFromCounters(workspaceId, status),
      };
    }
    this.listQueries.set(kind, queries);
    return queries;
  }

  /** Totals without a search come from the workspace's counters, so paging costs the same at any size. */
  private async totalFromCounters(workspaceId: string, status: ListFilter | undefined): Promise<number> {
    const w = await this.counters.first(this.store.db, { workspaceId });
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
}
