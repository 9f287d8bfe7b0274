// Workspaces: creation, plan changes, grants, the current cycle, first-start bootstrap (their credits in credits/).
import type { Transaction } from "kysely";
import { isCycleDue, renewCycleIfDue } from "../credits/cycles.js";
import { grantCredits } from "../credits/grants.js";
import { openingCredits, recordOpeningCredits } from "../credits/opening-balance.js";
import { changePlan } from "../credits/plan-changes.js";
import { newId } from "../domain/ids.js";
import type { Plan, PlanTable } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import { isUniqueViolation } from "../store/errors.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { Database, WorkspaceRow } from "../store/tables.js";
import { insertApiKey } from "../keys/api-keys.js";
import type { CreatedKey } from "../keys/key-schemas.js";
import { lockWorkspace } from "../store/workspace-lock.js";

export class UnknownWorkspaceError extends Error {
  constructor(workspaceId: string) {
    super(`No workspace ${workspaceId}.`);
  }
}

export class WorkspaceNameTakenError extends Error {
  constructor(name: string) {
    super(`A workspace named "${name}" exists already; names are unique. Pick another name.`);
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

/** A workspace as an operator lists it: its row as of now, and how many of its keys are not revoked. */
export interface ListedWorkspace {
  readonly row: WorkspaceRow;
  readonly activeKeys: number;
}

export class WorkspaceService {
  private readonly workspaceById: PreparedQuery<{ workspaceId: string }, WorkspaceRow>;

  constructor(
    private readonly store: Store,
    private readonly plans: PlanTable,
  ) {
    this.workspaceById = prepareQuery(store.db, (db, { workspaceId }) =>
      db.selectFrom("workspaces").selectAll().where("id", "=", workspaceId),
    );
  }

  planOf(workspace: Pick<WorkspaceRow, "plan_id">): Plan {
    const plan = this.plans.get(workspace.plan_id);
    if (!plan) throw new UnknownPlanError(workspace.plan_id, this.plans);
    return plan;
  }

  /** A new workspace with a full cycle allowance and its first (live) API key; its name must be new. */
  async create(name: string, planId: string, now = Date.now()): Promise<CreatedWorkspace> {
    const plan = this.plans.get(planId);
    if (!plan) throw new UnknownPlanError(planId, this.plans);
    try {
      return await this.store.db.transaction().execute((trx) => this.insertWorkspace(trx, name, plan, now));
    } catch (error) {
      // The unique index decides, so that two operators creating the same name at once make one workspace.
      if (isUniqueViolation(error) && /workspaces[._]name/.test(String(error))) {
        throw new WorkspaceNameTakenError(name);
      }
      throw error;
    }
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
        ...openingCredits(plan, now),
      })
      .execute();
    await recordOpeningCredits(trx, workspaceId, plan, now);
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

  /** Moves a workspace to another plan; an upgrade raises the balance (see credits/plan-changes.ts). */
  async setPlan(workspaceId: string, planId: string, now = Date.now()): Promise<WorkspaceRow> {
    const plan = this.plans.get(planId);
    if (!plan) throw new UnknownPlanError(planId, this.plans);
    const after = await this.store.db.transaction().execute((trx) => changePlan(trx, workspaceId, plan, now));
    if (!after) throw new UnknownWorkspaceError(workspaceId);
    return after;
  }

  /** Adds credits on top of the balance; they carry over from cycle to cycle. */
  async grantCredits(workspaceId: string, credits: number, now = Date.now()): Promise<WorkspaceRow> {
    const after = await this.store.db
      .transaction()
      .execute((trx) => grantCredits(trx, workspaceId, credits, now));
    if (!after) throw new UnknownWorkspaceError(workspaceId);
    return after;
  }

  /**
   * The workspace as of `now`, with a new cycle begun if one is due: `used_this_cycle` back to 0 and
   * the balance raised to the cycle allowance if it is below. Cheap when no cycle is due (one read).
   */
  async current(workspaceId: string, now = Date.now()): Promise<WorkspaceRow> {
    const row = await this.workspaceById.first(this.store.db, { workspaceId });
    if (!row) throw new UnknownWorkspaceError(workspaceId);
    if (!isCycleDue(row, now)) return row;
    return this.store.db
      .transaction()
      .execute((trx) => renewCycleIfDue(trx, workspaceId, this.planOf(row), now));
  }

  /** Every workspace, oldest first, each as of `now` (a due cycle is begun, as any read through the API would). */
  async list(now = Date.now()): Promise<ListedWorkspace[]> {
    const rows = await this.store.db.selectFrom("workspaces").selectAll().orderBy("id").execute();
    const counts = await this.store.db
      .selectFrom("api_keys")
      .select(["workspace_id", (eb) => eb.fn.countAll<number | string>().as("active")])
      .where("revoked_at", "is", null)
      .groupBy("workspace_id")
      .execute();
    const activeKeys = new Map(counts.map((c) => [c.workspace_id, Number(c.active)]));
    const listed: ListedWorkspace[] = [];
    for (const row of rows) {
      const current = isCycleDue(row, now) ? await this.current(row.id, now) : row;
      listed.push({ row: current, activeKeys: activeKeys.get(row.id) ?? 0 });
    }
    return listed;
  }

  /**
   * A new live key for the workspace, written the way `POST /v1/keys` writes one, for an operator whose
   * users lost theirs. The plan's key allowance is not checked: recovery must work when every allowed
   * key is still active but lost; the users revoke the lost ones with the new key.
   */
  async issueKey(workspaceId: string, label: string, now = Date.now()): Promise<CreatedKey> {
    return this.store.db.transaction().execute(async (trx) => {
      if (!(await lockWorkspace(trx, workspaceId))) throw new UnknownWorkspaceError(workspaceId);
      return insertApiKey(trx, workspaceId, { label, environment: "live" }, now);
    });
  }
}
