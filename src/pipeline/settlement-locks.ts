// Settlement's first step: the rows a batch will write, locked in the one order every claim and settlement keeps.
import type { Transaction } from "kysely";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import type { Settlement } from "./video-outcomes.js";

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
 * Where rows are locked one by one (PostgreSQL), the held videos, then their jobs, then the workspaces
 * are locked, each by id, the order claims take them in too (a settlement holding the workspace while a
 * claim held the job and wanted the workspace was a deadlock, and the video was stuck until its lease
 * ran out); SQLite's first write takes its single write lock. Each database's way is in
 * store/<database>/settlement-sql.ts.
 */
export async function lockBatch(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  settlements: readonly Settlement[],
): Promise<LockedBatch> {
  const ids = sortedUnique(settlements.map((s) => s.video.rowId));
  const workspaceIds = sortedUnique(settlements.map((s) => s.video.workspaceId));
  const { held, workspaces } = await databaseSql(store.dialect).settlement.lockBatch(store.db, trx, {
    ids,
    workerId,
    workspaceIds,
  });
  if (workspaces.length !== workspaceIds.length)
    throw new Error(`A workspace of the videos being settled does not exist: ${workspaceIds.join(", ")}.`);
  return { held: settlements.filter((s) => held.has(s.video.rowId)), workspaces };
}
