// Settlement's first step: the rows a batch will write, locked in the one order every claim and settlement keeps.
import type { Transaction } from "kysely";
import type { Store } from "../store/database.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { lockAndReadWorkspace } from "../store/workspace-lock.js";
import type { Settlement } from "./video-outcomes.js";
import { heldVideosSqlite, lockBatchPostgres } from "./settlement-statements.js";

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const sortedUnique = (ids: Iterable<string>) => [...new Set(ids)].sort(byId);

/** The batch's settlements whose videos the worker still holds, and its workspaces' rows, locked. */
export interface LockedBatch {
  readonly held: readonly Settlement[];
  /** By id. */
  readonly workspaces: readonly WorkspaceRow[];
}

/**
 * Locks the batch's rows and answers those of its videos that `workerId` still holds. The workspaces
 * are locked so that settlements of one workspace take turns and two cannot both spend its last
 * credits; a video whose lease was lost (another worker took it over) is left out, and writes nothing.
 *
 * On PostgreSQL the held videos, then their jobs, then the workspaces are locked, each by id, the order
 * claims take them in too (a settlement holding the workspace while a claim held the job and wanted the
 * workspace was a deadlock, and the video was stuck until its lease ran out), all by one statement. On
 * SQLite the first write takes the database's single write lock, so there is no order to keep: the
 * workspaces' no-op UPDATE takes it, then the leases are read (a read first would begin a read
 * transaction that cannot always become a write one, and nothing can change the answer after it).
 */
export async function lockBatch(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  settlements: readonly Settlement[],
): Promise<LockedBatch> {
  const ids = sortedUnique(settlements.map((s) => s.video.videoId));
  const workspaceIds = sortedUnique(settlements.map((s) => s.video.workspaceId));
  let workspaces: WorkspaceRow[];
  let held: ReadonlySet<string>;
  if (store.dialect === "postgres") {
    const rows = await lockBatchPostgres(store.db).rows(trx, { ids, workerId, workspaceIds });
    held = new Set(rows[0]?.held_ids ?? []);
    workspaces = rows.map(({ held_ids: _, ...workspace }) => workspace);
  } else {
    workspaces = await lockWorkspacesSqlite(store, trx, workspaceIds);
    const rows = await heldVideosSqlite(store.db).rows(trx, { ids: JSON.stringify(ids), workerId });
    held = new Set(rows.map((video) => video.id));
  }
  if (workspaces.length !== workspaceIds.length)
    throw new Error(`A workspace of the videos being settled does not exist: ${workspaceIds.join(", ")}.`);
  return { held: settlements.filter((s) => held.has(s.video.videoId)), workspaces };
}

/**
 * On SQLite, which has no FOR UPDATE, the workspaces are read by a no-op UPDATE ... RETURNING: one
 * workspace (the common case) by a prepared statement.
 */
async function lockWorkspacesSqlite(
  store: Store,
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<WorkspaceRow[]> {
  if (ids.length === 1) return lockAndReadWorkspace(store.db).rows(trx, { workspaceId: ids[0] as string });
  const rows = await trx
    .updateTable("workspaces")
    .set((eb) => ({ plan_id: eb.ref("plan_id") }))
    .where("id", "in", [...ids])
    .returningAll()
    .execute();
  return rows.sort((a, b) => byId(a.id, b.id));
}
