// Credits granted on top of the balance by an operator; they carry over from cycle to cycle.
import type { Transaction } from "kysely";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import { recordCreditEntries } from "./ledger.js";

/** Adds `credits` to the balance and records the grant; undefined when there is no such workspace. */
export async function grantCredits(
  trx: Transaction<Database>,
  workspaceId: string,
  credits: number,
  now: number,
): Promise<WorkspaceRow | undefined> {
  if (!(await lockWorkspace(trx, workspaceId))) return undefined;
  const after = await trx
    .updateTable("workspaces")
    .set((eb) => ({ balance: eb("balance", "+", credits) }))
    .where("id", "=", workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordCreditEntries(
    trx,
    [{ workspaceId, kind: "grant", amount: credits, balanceAfter: after.balance }],
    now,
  );
  return after;
}
