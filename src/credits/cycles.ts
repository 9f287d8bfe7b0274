// The monthly credit cycle: when a new one is due, and starting it (usage back to 0, balance topped up).
import type { Transaction } from "kysely";
import { cycleContaining } from "../domain/billing-cycle.js";
import type { Plan } from "../domain/plans.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import { changeBalance } from "./balance-change.js";

/** Whether a cycle began after the workspace's current one: its figures are then last cycle's. */
export function isCycleDue(
  workspace: Pick<WorkspaceRow, "created_at" | "cycle_started_at">,
  now: number,
): boolean {
  return cycleContaining(workspace.created_at, now).startedAt > workspace.cycle_started_at;
}

/**
 * Starts the workspace's new cycle inside the caller's transaction, if one is due: `used_this_cycle`
 * back to 0 and the balance raised to the plan's allowance if it is below. Returns the row.
 */
export async function renewCycleIfDue(
  trx: Transaction<Database>,
  workspaceId: string,
  plan: Plan,
  now: number,
): Promise<WorkspaceRow> {
  await lockWorkspace(trx, workspaceId);
  const row = await trx
    .selectFrom("workspaces")
    .selectAll()
    .where("id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  const cycle = cycleContaining(row.created_at, now);
  // Another process may have renewed it while this one waited for the lock.
  if (cycle.startedAt <= row.cycle_started_at) return row;
  const raise = Math.max(0, plan.cycleAllowance - row.balance);
  return changeBalance(
    trx,
    workspaceId,
    { cycle_started_at: cycle.startedAt, used_this_cycle: 0, balance: row.balance + raise },
    { kind: "cycle_reset", amount: raise },
    now,
  );
}
