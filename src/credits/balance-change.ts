// A change of a workspace's balance written together with its ledger line, as grants, plan changes and renewals do.
import type { Transaction, UpdateObject } from "kysely";
import type { CreditEntryKind, Database, WorkspaceRow } from "../store/tables.js";
import { recordCreditEntries } from "./ledger.js";

/**
 * Writes `changes` to the workspace's row (locked by the caller) and, when `entry` is given, its ledger
 * line with the balance the change left. Answers the row after the change.
 */
export async function changeBalance(
  trx: Transaction<Database>,
  workspaceId: string,
  changes: UpdateObject<Database, "workspaces">,
  entry: { kind: CreditEntryKind; amount: number } | undefined,
  now: number,
): Promise<WorkspaceRow> {
  const after = await trx
    .updateTable("workspaces")
    .set(changes)
    .where("id", "=", workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (entry) {
    await recordCreditEntries(trx, [{ workspaceId, ...entry, balanceAfter: after.balance }], now);
  }
  return after;
}
