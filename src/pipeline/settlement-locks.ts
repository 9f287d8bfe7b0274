// Settlement's first step: the rows a batch will write, locked in the one order every claim and settlement keeps.
import type { Transaction } from "kysely";
import type { Store } from "../store/database.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { lockAndReadWorkspace } from "../store/workspace-lock.js";
import type { Settlement } from "./settlement.js";
import { heldVideosSqlite } from "./settlement-statements.js";

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const sortedUnique = (ids: Iterable<string>) => [...new Set(ids)].sort(byId);

/**
 * The settlements whose videos this worker still holds. On PostgreSQL their videos and then their
 * jobs are locked, each by id, the order claims take them in too: a settlement holding the workspace
 * while a claim held the job and wanted the workspace was a deadlock, and the video was stuck until
 * its lease ran out. On SQLite the first write takes the database's single write lock, so there is no
 * order to keep, and the leases are checked once it is taken (`heldOnSqlite`): all are answered here.
 */
export async function lockHeldVideosAndJobs(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  settlements: readonly Settlement[],
): Promise<readonly Settlement[]> {
  if (store.dialect !== "postgres") return settlements;
  // One statement for all the videos, one for all their jobs: ORDER BY makes FOR UPDATE take the
  // locks in id order, and a round trip per row was most of a small batch's time on PostgreSQL.
  const locked = await trx
    .selectFrom("videos")
    .select("id")
    .where("id", "in", sortedUnique(settlements.map((s) => s.video.videoId)))
    .where("lease_owner", "=", workerId)
    .where("status", "=", "processing")
    .orderBy("id")
    .forUpdate()
    .execute();
  const held = new Set(locked.map((video) => video.id));
  const heldJobs = sortedUnique(
    settlements.filter((s) => held.has(s.video.videoId)).map((s) => s.video.jobId),
  );
  if (heldJobs.length > 0) {
    await trx.selectFrom("jobs").select("id").where("id", "in", heldJobs).orderBy("id").forUpdate().execute();
  }
  return settlements.filter((s) => held.has(s.video.videoId));
}

/**
 * On SQLite, those of `candidates` whose videos `workerId` still holds, read after the batch's first
 * write (the workspaces' lock) took the database's single write lock: a read before it would begin a
 * read transaction that cannot always become a write one, and nothing can change the answer after it.
 * On PostgreSQL `lockHeldVideosAndJobs` already answered it.
 */
export async function heldOnSqlite(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  candidates: readonly Settlement[],
): Promise<readonly Settlement[]> {
  if (store.dialect === "postgres" || candidates.length === 0) return candidates;
  const held = await heldVideosSqlite(store.db).rows(trx, {
    ids: JSON.stringify(candidates.map((s) => s.video.videoId)),
    workerId,
  });
  const heldIds = new Set(held.map((video) => video.id));
  return candidates.filter((s) => heldIds.has(s.video.videoId));
}

/**
 * Locks and reads the workspaces of the batch's videos, in id order, so that settlements of one
 * workspace take turns and two cannot both spend its last credits. One workspace (the common case) is
 * one prepared statement. Several are one statement too: on PostgreSQL a SELECT ... ORDER BY id FOR
 * UPDATE (a multi-row UPDATE would lock them in no promised order); on SQLite, which has no FOR UPDATE
 * and whose single write lock leaves no order to keep, a no-op UPDATE ... RETURNING.
 */
export async function lockAndReadWorkspaces(
  store: Store,
  trx: Transaction<Database>,
  settlements: readonly Settlement[],
): Promise<WorkspaceRow[]> {
  const ids = sortedUnique(settlements.map((s) => s.video.workspaceId));
  let rows: WorkspaceRow[];
  if (ids.length <= 1) {
    rows =
      ids.length === 0
        ? []
        : await lockAndReadWorkspace(store.db).rows(trx, { workspaceId: ids[0] as string });
  } else if (store.dialect === "postgres") {
    rows = await trx
      .selectFrom("workspaces")
      .selectAll()
      .where("id", "in", ids)
      .orderBy("id")
      .forUpdate()
      .execute();
  } else {
    rows = await trx
      .updateTable("workspaces")
      .set((eb) => ({ plan_id: eb.ref("plan_id") }))
      .where("id", "in", ids)
      .returningAll()
      .execute();
  }
  if (rows.length !== ids.length)
    throw new Error(`A workspace of the videos being settled does not exist: ${ids.join(", ")}.`);
  return rows.sort((a, b) => byId(a.id, b.id));
}
