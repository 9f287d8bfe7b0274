// Moving a workspace to another plan, with what that does to its balance.
import type { Transaction } from "kysely";
import type { Plan } from "../domain/plans.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import { changeBalance } from "./balance-change.js";

/**
 * Puts the workspace on `plan`. Its limits change at once; an upgrade also raises the balance to the
 * new plan's cycle allowance (never lowers it), so the credits paid for are there now. Undefined when
 * there is no such workspace.
 */
export async function changePlan(
  trx: Transaction<Database>,
  workspaceId: string,
  plan: Plan,
  now: number,
): Promise<WorkspaceRow | undefined> {
  if (!(await lockWorkspace(trx, workspaceId))) return undefined;
  const before = await trx
    .selectFrom("workspaces")
    .selectAll()
    .where("id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  const raise = Math.max(0, plan.cycleAllowance - before.balance);
  const entry = raise > 0 ? { kind: "plan_change" as const, amount: raise } : undefined;
  return changeBalance(trx, workspaceId, { plan_id: plan.id, balance: before.balance + raise }, entry, now);
}
