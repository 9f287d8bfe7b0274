// Serialising writes that must see a workspace's current state (allowances, balances) before acting.
import type { Kysely, Selectable, Transaction } from "kysely";
import { preparedPerStore } from "./prepared-query.js";
import type { Database, WorkspacesTable } from "./tables.js";

/**
 * Takes the workspace's write lock for the rest of the transaction. A no-op UPDATE does it in both
 * dialects: PostgreSQL locks the row until commit, and SQLite takes the database's write lock, so a
 * concurrent transaction that wants the same workspace waits instead of acting on a stale count.
 */
export async function lockWorkspace(trx: Transaction<Database> | Kysely<Database>, workspaceId: string) {
  const result = await trx
    .updateTable("workspaces")
    .set((eb) => ({ plan_id: eb.ref("plan_id") }))
    .where("id", "=", workspaceId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** `lockWorkspace` and a read of the row in one prepared statement, for the paths that run most. */
export const lockAndReadWorkspace = preparedPerStore<{ workspaceId: string }, Selectable<WorkspacesTable>>(
  (db, { workspaceId }) =>
    db
      .updateTable("workspaces")
      .set((eb) => ({ plan_id: eb.ref("plan_id") }))
      .where("id", "=", workspaceId)
      .returningAll(),
);
