// The usage object: credits, cycle, plan and all-time job figures, read from counters, never from scans.
import { setHardCap } from "../credits/hard-cap.js";
import { cycleContaining } from "../domain/billing-cycle.js";
import { formatTimestamp, lastUtcDays } from "../domain/timestamps.js";
import type { Plan } from "../domain/plans.js";
import type { WorkspaceScope } from "../http/request-context.js";
import type { Store } from "../store/database.js";
import { type PreparedQuery, prepareQuery } from "../store/prepared-query.js";
import type { WorkspaceService } from "../workspaces/workspaces.js";
import type { Usage } from "./usage-schemas.js";

const dailyDays = 14;
const dayMs = 86_400_000;

export class UsageService {
  private readonly failureCounts: PreparedQuery<{ workspaceId: string }, { code: string; count: number }>;
  private readonly dailyCredits: PreparedQuery<
    { workspaceId: string; fromDay: string },
    { day: string; credits: number }
  >;

  constructor(
    private readonly store: Store,
    private readonly workspaces: WorkspaceService,
  ) {
    this.failureCounts = prepareQuery(store.db, (db, { workspaceId }) =>
      db.selectFrom("failure_counts").select(["code", "count"]).where("workspace_id", "=", workspaceId),
    );
    this.dailyCredits = prepareQuery(store.db, (db, { workspaceId, fromDay }) =>
      db
        .selectFrom("daily_credits")
        .select(["day", "credits"])
        .where("workspace_id", "=", workspaceId)
        .where("day", ">=", fromDay),
    );
  }

  /** The workspace's usage at `now`. */
  async get(context: WorkspaceScope, now = Date.now()): Promise<Usage> {
    return (await this.report(context, now)).value;
  }

  /** The usage at `now`, and until when it holds if nothing is written (it names the day and the cycle). */
  async report(context: WorkspaceScope, now: number): Promise<{ value: Usage; until: number }> {
    const { workspaceId } = context;
    const workspace = await this.workspaces.current(workspaceId, now);
    const plan: Plan = this.workspaces.planOf(workspace);
    const days = lastUtcDays(now, dailyDays);
    const [failures, spent] = await Promise.all([
      this.failureCounts.rows(this.store.db, { workspaceId }),
      this.dailyCredits.rows(this.store.db, { workspaceId, fromDay: days[0] ?? "" }),
    ]);
    const spentByDay = new Map(spent.map((row) => [row.day, Number(row.credits)]));
    const failuresByCode: Record<string, number> = {};
    for (const row of failures) failuresByCode[row.code] = Number(row.count);
    const cycle = cycleContaining(workspace.created_at, now);
    const jobs = {
      queued: workspace.jobs_queued,
      processing: workspace.jobs_processing,
      done: workspace.jobs_done,
      failed: workspace.jobs_failed,
    };
    const usage: Usage = {
      credits: {
        balance: workspace.balance,
        used_this_cycle: workspace.used_this_cycle,
        cycle_allowance: plan.cycleAllowance,
        hard_cap: workspace.hard_cap,
      },
      cycle: { started_at: formatTimestamp(cycle.startedAt), ends_at: formatTimestamp(cycle.endsAt) },
      plan: { id: plan.id, name: plan.name, requests_per_minute: plan.requestsPerMinute },
      jobs: { ...jobs, total: jobs.queued + jobs.processing + jobs.done + jobs.failed },
      videos_processed: workspace.videos_processed,
      failures_by_code: failuresByCode,
      daily: days.map((date) => ({ date, credits: spentByDay.get(date) ?? 0 })),
    };
    // The figures name today and the cycle, so they hold no longer than either, writes or not.
    return { value: usage, until: Math.min(cycle.endsAt, (Math.floor(now / dayMs) + 1) * dayMs) };
  }

  /** Sets or clears the ceiling on credits used in a cycle, and answers with the usage object. */
  async setHardCap(workspaceId: string, hardCap: number | null): Promise<Usage> {
    await setHardCap(this.store.db, workspaceId, hardCap);
    return this.get({ workspaceId });
  }
}
