// The search of the job list: which of a workspace's jobs an id prefix finds, as index-friendly SQL.
import { type ExpressionBuilder, sql } from "kysely";
import type { Dialect } from "../store/database.js";
import type { Database } from "../store/tables.js";

/** The pattern that matches every value starting with `prefix`, for `startsWith` below. */
export function prefixPattern(dialect: Dialect, prefix: string): string {
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

/**
 * Ids of the workspace's jobs whose id, or one of whose videos' ids or platform ids, starts with
 * the prefix `pattern` matches. Prefix lookups joined by UNION, each on an index of its own; an OR
 * across them would make the database read every job of the workspace. A job whose videos a worker
 * has not yet admitted to the queue is found by its admission row's list of platform ids, read for
 * the workspace's waiting jobs only (its videos have no `vid_` ids yet).
 */
export function jobsMatching(
  dialect: Dialect,
  eb: ExpressionBuilder<Database, "jobs">,
  workspaceId: string,
  pattern: string,
) {
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
