// Workspaces and their credits: creation, plan changes, grants, the monthly cycle, first-start bootstrap.
import type { Kysely, Transaction } from "kysely";
import { cycleContaining } from "../domain/billing-cycle.js";
import { newId } from "../domain/ids.js";
import type { Plan, PlanTable } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { CreditEntryKind, Database, WorkspaceRow } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import { insertApiKey } from "../keys/api-keys.js";

type Db = Kysely<Database> | Transaction<Database>;

export class UnknownWorkspaceError extends Error {
  constructor(workspaceId: string) {
    super(`No workspace ${workspaceId}.`);
  }
}

export class UnknownPlanError extends Error {
  constructor(planId: string, plans: PlanTable) {
    super(`No plan "${planId}"; the plans are: ${[...plans.keys()].join(", ")}.`);
  }
}

export interface CreatedWorkspace {
  workspaceId: string;
  apiKey: string;
}

async function recordCreditEntry(
  db: Db,
  workspaceId: string,
  kind: CreditEntryKind,
  amount: number,
  balanceAfter: number,
  now: number,
) {
  await db
    .insertInto("credit_ledger")
    .values({
      id: newId("led", now),
      workspace_id: workspaceId,
      kind,
      amount,
      balance_after: balanceAfter,
      created_at: now,
    })
    .execute();
}

export class WorkspaceService {
  private readonly workspaceById: PreparedQuery<[workspaceId: string], WorkspaceRow>;

  constructor(
    private readonly store: Store,
    private readonly plans: PlanTable,
  ) {
    this.workspaceById = prepareQuery(store.db, 1, (db, workspaceId) =>
      db.selectFrom("workspaces").selectAll().where("id", "=", workspaceId),
    );
  }

  planOf(workspace: Pick<WorkspaceRow, "plan_id">): Plan {
    const plan = this.plans.get(workspace.plan_id);
    if (!plan) throw new UnknownPlanError(workspace.plan_id, this.plans);
    return plan;
  }

  /** A new workspace with a full cycle allowance and its first (live) API key. */
  async create(name: string, planId: string, now = Date.now()): Promise<CreatedWorkspace> {
    const plan = this.plans.get(planId);
    if (!plan) throw new UnknownPlanError(planId, this.plans);
    return this.store.db.transaction().execute((trx) => this.insertWorkspace(trx, name, plan, now));
  }

  private async insertWorkspace(trx: Transaction<Database>, name: string, plan: Plan, now: number) {
    const workspaceId = newId("ws", now);
    await trx
      .insertInto("workspaces")
      .values({
        id: workspaceId,
        name,
        plan_id: plan.id,
        created_at: now,
        cycle_started_at: now,
        balance: plan.cycleAllowance,
        used_this_cycle: 0,
        hard_cap: null,
      })
      .execute();
    await recordCreditEntry(trx, workspaceId, "initial", plan.cycleAllowance, plan.cycleAllowance, now);
    const key = await insertApiKey(trx, workspaceId, { label: "First key", environment: "live" }, now);
    return { workspaceId, apiKey: key.key };
  }

  /**
   * On the first start against an empty database: the workspace `default` on plan `pro` (or the
   * first plan, when a plan table lacks `pro`). A marker row decides which process does it, so two
   * processes starting together create one workspace, and a restart never creates another.
   */
  async bootstrapDefault(now = Date.now()): Promise<CreatedWorkspace | null> {
    return this.store.db.transaction().execute(async (trx) => {
      const marker = await trx
        .insertInto("meta")
        .values({ key: "bootstrapped_at", value: String(now) })
        .onConflict((c) => c.column("key").doNothing())
        .executeTakeFirst();
      if (Number(marker.numInsertedOrUpdatedRows ?? 0n) === 0) return null;
      const existing = await trx.selectFrom("workspaces").select("id").limit(1).executeTakeFirst();
      if (existing) return null;
      const plan = this.plans.get("pro") ?? [...this.plans.values()][0];
      if (!plan) throw new Error("The plan table is empty.");
      return this.insertWorkspace(trx, "default", plan, now);
    });
  }

  /**
   * Moves a workspace to another plan. Its limits change at once; an upgrade also raises the balance
   * to the new plan's cycle allowance (never lowers it), so the credits paid for are there now.
   */
  async setPlan(workspaceId: string, planId: string, now = Date.now()): Promise<WorkspaceRow> {
    const plan = this.plans.get(planId);
    if (!plan) throw new UnknownPlanError(planId, this.plans);
    return this.store.db.transaction().execute(async (trx) => {
      if (!(await lockWorkspace(trx, workspaceId))) throw new UnknownWorkspaceError(workspaceId);
      const before = await trx
        .selectFrom("workspaces")
        .selectAll()
        .where("id", "=", workspaceId)
        .executeTakeFirstOrThrow();
      const raise = Math.max(0, plan.cycleAllowance - before.balance);
      const after = await trx
        .updateTable("workspaces")
        .set({ plan_id: plan.id, balance: before.balance + raise })
        .where("id", "=", workspaceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (raise > 0) await recordCreditEntry(trx, workspaceId, "plan_change", raise, after.balance, now);
      return after;
    });
  }

  /** Adds credits on top of the balance; they carry over from cycle to cycle. */
  async grantCredits(workspaceId: string, credits: number, now = Date.now()): Promise<WorkspaceRow> {
    return this.store.db.transaction().execute(async (trx) => {
      if (!(await lockWorkspace(trx, workspaceId))) throw new UnknownWorkspaceError(workspaceId);
      const after = await trx
        .updateTable("workspaces")
        .set((eb) => ({ balance: eb("balance", "+", credits) }))
        .where("id", "=", workspaceId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordCreditEntry(trx, workspaceId, "grant", credits, after.balance, now);
      return after;
    });
  }

  /**
   * The workspace as of `now`, with a new cycle begun if one is due: `used_this_cycle` back to 0 and
   * the balance raised to the cycle allowance if it is below. Cheap when no cycle is due (one read).
   */
  async current(workspaceId: string, now = Date.now()): Promise<WorkspaceRow> {
    const row = await this.workspaceById.first(this.store.db, workspaceId);
    if (!row) throw new UnknownWorkspaceError(workspaceId);
    if (cycleContaining(row.created_at, now).startedAt <= row.cycle_started_at) return row;
    return this.store.db
      .transaction()
      .execute((trx) => renewCycleIfDue(trx, workspaceId, this.planOf(row), now));
  }
}

/** Starts the workspace's new cycle inside the caller's transaction, if one is due; returns the row. */
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
  const after = await trx
    .updateTable("workspaces")
    .set({ cycle_started_at: cycle.startedAt, used_this_cycle: 0, balance: row.balance + raise })
    .where("id", "=", workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordCreditEntry(trx, workspaceId, "cycle_reset", raise, after.balance, now);
  return after;
}
