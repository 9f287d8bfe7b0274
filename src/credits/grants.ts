// Credits granted on top of the balance by an operator; they carry over from cycle to cycle.
import { expressionBuilder, type Transaction } from "kysely";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import { changeBalance } from "./balance-change.js";

/** Adds `credits` to the balance and records the grant; undefined when there is no such workspace. */
export async function grantCredits(
  trx: Transaction<Database>,
  workspaceId: string,
  credits: number,
  now: number,
): Promise<WorkspaceRow | undefined> {
  if (!(await lockWorkspace(trx, workspaceId))) return undefined;
  const credited = expressionBuilder<Database, "workspaces">()("balance", "+", credits);
  return changeBalance(trx, workspaceId, { balance: credited }, { kind: "grant", amount: credits }, now);
}
