// A new workspace's credits: its first cycle starts at creation with the plan's full allowance.
import type { Transaction } from "kysely";
import type { Plan } from "../domain/plans.js";
import type { Database, WorkspacesTable } from "../store/tables.js";
import { recordCreditEntries } from "./ledger.js";

/** The credit columns of a workspace row being created (the usage counters start at their defaults). */
export function openingCredits(
  plan: Plan,
  now: number,
): Pick<WorkspacesTable, "cycle_started_at" | "balance" | "used_this_cycle" | "hard_cap"> {
  return { cycle_started_at: now, balance: plan.cycleAllowance, used_this_cycle: 0, hard_cap: null };
}

/** The ledger's first line for a workspace just created with `openingCredits`. */
export async function recordOpeningCredits(
  trx: Transaction<Database>,
  workspaceId: string,
  plan: Plan,
  now: number,
): Promise<void> {
  await recordCreditEntries(
    trx,
    [{ workspaceId, kind: "initial", amount: plan.cycleAllowance, balanceAfter: plan.cycleAllowance }],
    now,
  );
}
