// The search of the job list: which of a workspace's jobs an id prefix finds, as index-friendly SQL.
import type { ExpressionBuilder } from "kysely";
import type { SqlVocabulary } from "../store/sql-vocabulary.js";
import type { Database } from "../store/tables.js";

/**
 * Ids of the workspace's jobs whose id, or one of whose videos' ids or platform ids, starts with
 * the prefix `pattern` (the database's `prefixPattern`) matches, in the database's words: exact about
 * case, and able to use an index (store/<database>/sql-vocabulary.ts). Prefix lookups joined by
 * UNION, each on an index of its own; an OR across them would make the database read every job of the
 * workspace. A job whose videos a worker
 * has not yet admitted to the queue is found by its admission row's list of platform ids, read for
 * the workspace's waiting jobs only (its videos have no `vid_` ids yet).
 */
export function jobsMatching(
  vocabulary: SqlVocabulary,
  eb: ExpressionBuilder<Database, "jobs">,
  workspaceId: string,
  pattern: string,
) {
  const videosWhere = (column: "videos.id" | "videos.platform_video_id") =>
    eb
      .selectFrom("videos")
      .select("videos.job_id as id")
      .where("videos.workspace_id", "=", workspaceId)
      .where(vocabulary.startsWith(column, pattern));
  return eb
    .selectFrom("jobs as matching")
    .select("matching.id as id")
    .where("matching.workspace_id", "=", workspaceId)
    .where(vocabulary.startsWith("matching.id", pattern))
    .union(videosWhere("videos.id"))
    .union(videosWhere("videos.platform_video_id"))
    .union(
      eb
        .selectFrom("job_admissions")
        .select("job_admissions.job_id as id")
        .where("job_admissions.workspace_id", "=", workspaceId)
        .where(vocabulary.hasElementStartingWith("job_admissions.platform_video_ids", pattern)),
    );
}
