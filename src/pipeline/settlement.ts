// Settling a video: its outcome, its charge, its job's counts and status, and the usage counters,
// all in one transaction, so a video is charged exactly once or not at all.
import type { Selectable, Transaction } from "kysely";
import { cycleContaining } from "../domain/billing-cycle.js";
import { newId } from "../domain/ids.js";
import { isSettled, jobStatus } from "../domain/job-status.js";
import { creditsForDuration } from "../domain/pricing.js";
import { utcDay } from "../domain/timestamps.js";
import type { Row } from "../extraction/extractor.js";
import type { PlanTable } from "../domain/plans.js";
import { renewCycleIfDue } from "../workspaces/workspaces.js";
import type { Store } from "../store/database.js";
import { lockAndReadWorkspace } from "../store/workspace-lock.js";
import type { Database, JobStatus, WorkspacesTable } from "../store/tables.js";
import { recordJobEvents } from "../webhooks/outbox.js";
import {
  addFailures,
  addToWorkspaceCounters,
  countInJobWithFailures,
  countInJobWithoutFailures,
  writeDone,
  writeFailed,
} from "./settlement-statements.js";

export type VideoOutcome =
  | {
      readonly kind: "done";
      readonly rows: Row[];
      readonly durationSeconds: number;
      readonly chunkCount: number;
    }
  | { readonly kind: "failed"; readonly code: string; readonly message: string; readonly retryable: boolean };

export interface SettledVideo {
  readonly videoId: string;
  readonly jobId: string;
  readonly workspaceId: string;
}

/** What settling did: `lost` when the worker no longer held the video (another settles it). */
export type SettlementResult =
  { kind: "lost" } | { kind: "settled"; status: "done" | "failed"; jobSettled: boolean };

/**
 * PostgreSQL gave up the transaction to break a deadlock or a serialization conflict: nothing of it was
 * written, and trying it again is safe.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

/** The charge a finished video would take, or the failure it becomes when the workspace cannot pay. */
function priceOrRefusal(
  outcome: VideoOutcome,
  workspace: { balance: number; used_this_cycle: number; hard_cap: number | null },
): { charge: number; outcome: VideoOutcome } {
  if (outcome.kind === "failed") return { charge: 0, outcome };
  const price = creditsForDuration(outcome.durationSeconds);
  if (workspace.hard_cap !== null && workspace.used_this_cycle + price > workspace.hard_cap) {
    return {
      charge: 0,
      outcome: {
        kind: "failed",
        code: "hard_cap_reached",
        message: `This video costs ${price} credits, which would take the cycle past its hard cap of ${workspace.hard_cap}.`,
        retryable: true,
      },
    };
  }
  if (workspace.balance < price) {
    return {
      charge: 0,
      outcome: {
        kind: "failed",
        code: "insufficient_credits",
        message: `This video costs ${price} credits; the balance was ${workspace.balance}.`,
        retryable: true,
      },
    };
  }
  return { charge: price, outcome };
}

/** A video whose outcome is ready, as handed to `settleVideos`. */
export interface Settlement {
  readonly video: SettledVideo;
  readonly outcome: VideoOutcome;
}

export async function settleVideo(
  store: Store,
  plans: PlanTable,
  workerId: string,
  video: SettledVideo,
  proposed: VideoOutcome,
  now = Date.now(),
): Promise<SettlementResult> {
  const [result] = await settleVideos(store, plans, workerId, [{ video, outcome: proposed }], now);
  return result as SettlementResult;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedUnique = (ids: Iterable<string>) => [...new Set(ids)].sort(byId);

/** What a batch adds to one job's counts. */
interface JobChange {
  readonly workspaceId: string;
  done: number;
  failed: number;
  charge: number;
  settled: boolean;
}

/** What a batch adds to one workspace's balance and counters. */
interface WorkspaceChange {
  balance: number;
  usedThisCycle: number;
  hardCap: number | null;
  charged: number;
  videosProcessed: number;
  ledger: { amount: number; balanceAfter: number }[];
  failures: Map<string, number>;
  jobsWithFailures: number;
  jobsSettled: number;
  jobsDone: number;
  jobsFailed: number;
}

/**
 * Settles several videos in one transaction, each exactly as `settleVideo` would alone (its lease
 * checked, then charged or refused against the workspace as the videos before it in the list left it),
 * so that the commit and the statements per job and per workspace are paid once per batch. A video
 * whose lease was lost is `lost` and writes nothing; the others settle. An error rolls the whole batch
 * back, and trying it again is then as safe as trying one video again.
 */
export async function settleVideos(
  store: Store,
  plans: PlanTable,
  workerId: string,
  settlements: readonly Settlement[],
  now = Date.now(),
): Promise<SettlementResult[]> {
  if (settlements.length === 0) return [];
  const lockRows = store.dialect === "postgres";
  return store.db.transaction().execute(async (trx) => {
    // On PostgreSQL rows are locked in one order, videos then jobs then workspaces, each by id, the
    // order claims take them in too: a settlement holding the workspace while a claim held the job and
    // wanted the workspace was a deadlock, and the video was stuck until its lease ran out. On SQLite the
    // first write takes the database's single write lock, so there is no order to keep, and the lease
    // is checked by the UPDATE that writes the outcome.
    let held: Set<string> | undefined;
    if (lockRows) {
      // One statement for all the videos, one for all their jobs: ORDER BY makes FOR UPDATE take the
      // locks in id order, and a round trip per row was most of a small batch's time on PostgreSQL.
      const locked = await trx
        .selectFrom("videos")
        .select("id")
        .where("id", "in", sortedUnique(settlements.map((s) => s.video.videoId)))
        .where("lease_owner", "=", workerId)
        .where("status", "=", "processing")
        .orderBy("id")
        .forUpdate()
        .execute();
      held = new Set(locked.map((video) => video.id));
      const heldJobs = sortedUnique(
        settlements.filter((s) => held?.has(s.video.videoId)).map((s) => s.video.jobId),
      );
      if (heldJobs.length > 0) {
        await trx
          .selectFrom("jobs")
          .select("id")
          .where("id", "in", heldJobs)
          .orderBy("id")
          .forUpdate()
          .execute();
      }
    }
    const candidates = held ? settlements.filter((s) => held.has(s.video.videoId)) : settlements;

    // Settlements of one workspace take turns (its row locked, and read in the same statement), so two
    // cannot both spend the last credits.
    const workspaces = new Map<string, WorkspaceChange>();
    for (let workspace of await lockAndReadWorkspaces(store, trx, candidates)) {
      const plan = plans.get(workspace.plan_id);
      const cycleDue = cycleContaining(workspace.created_at, now).startedAt > workspace.cycle_started_at;
      if (plan && cycleDue) workspace = await renewCycleIfDue(trx, workspace.id, plan, now);
      workspaces.set(workspace.id, {
        balance: workspace.balance,
        usedThisCycle: workspace.used_this_cycle,
        hardCap: workspace.hard_cap,
        charged: 0,
        videosProcessed: 0,
        ledger: [],
        failures: new Map(),
        jobsWithFailures: 0,
        jobsSettled: 0,
        jobsDone: 0,
        jobsFailed: 0,
      });
    }

    const jobs = new Map<string, JobChange>();
    const outcomes = new Map<string, { status: "done" | "failed"; jobId: string }>();
    for (const { video, outcome: proposed } of candidates) {
      const workspace = workspaces.get(video.workspaceId) as WorkspaceChange;
      const { charge, outcome } = priceOrRefusal(proposed, {
        balance: workspace.balance,
        used_this_cycle: workspace.usedThisCycle,
        hard_cap: workspace.hardCap,
      });
      const written = await writeOutcome(store, trx, workerId, video.videoId, outcome, charge, now);
      if (!written) continue;
      outcomes.set(video.videoId, { status: outcome.kind, jobId: video.jobId });
      const job = jobs.get(video.jobId) ?? {
        workspaceId: video.workspaceId,
        done: 0,
        failed: 0,
        charge: 0,
        settled: false,
      };
      jobs.set(video.jobId, job);
      if (outcome.kind === "done") {
        workspace.balance -= charge;
        workspace.usedThisCycle += charge;
        workspace.charged += charge;
        workspace.videosProcessed++;
        workspace.ledger.push({ amount: -charge, balanceAfter: workspace.balance });
        job.done++;
        job.charge += charge;
      } else {
        workspace.failures.set(outcome.code, (workspace.failures.get(outcome.code) ?? 0) + 1);
        job.failed++;
      }
    }

    for (const jobId of [...jobs.keys()].sort(byId)) {
      const change = jobs.get(jobId) as JobChange;
      await countInJob(store, trx, jobId, change, workspaces.get(change.workspaceId) as WorkspaceChange, now);
    }
    const byWorkspace = [...workspaces].sort(([a], [b]) => byId(a, b));
    for (const [workspaceId, change] of byWorkspace) {
      await recordWorkspaceChange(store, trx, workspaceId, change);
    }
    await recordCharges(trx, byWorkspace, now);

    return settlements.map(({ video }): SettlementResult => {
      const settled = outcomes.get(video.videoId);
      if (!settled) return { kind: "lost" };
      return {
        kind: "settled",
        status: settled.status,
        jobSettled: jobs.get(settled.jobId)?.settled ?? false,
      };
    });
  });
}

/** Writes the video's outcome and charge; false when its lease was lost (another worker settles it). */
async function writeOutcome(
  store: Store,
  trx: Transaction<Database>,
  workerId: string,
  videoId: string,
  outcome: VideoOutcome,
  charge: number,
  now: number,
): Promise<boolean> {
  const written =
    outcome.kind === "done"
      ? await writeDone(store.db).run(
          trx,
          JSON.stringify(outcome.rows),
          outcome.rows.length,
          Math.round(outcome.durationSeconds),
          outcome.chunkCount,
          charge,
          now,
          videoId,
          workerId,
        )
      : await writeFailed(store.db).run(
          trx,
          outcome.code,
          outcome.message,
          outcome.retryable ? 1 : 0,
          now,
          videoId,
          workerId,
        );
  return (written.numAffectedRows ?? 0n) > 0n;
}

/** The batch's charges and counts on the workspace: balance, usage counters, daily credits, ledger, failures. */
async function recordWorkspaceChange(
  store: Store,
  trx: Transaction<Database>,
  workspaceId: string,
  change: WorkspaceChange,
) {
  const jobsNotDone = change.jobsSettled - change.jobsDone;
  if (change.videosProcessed > 0 || change.jobsWithFailures > 0 || change.jobsSettled > 0) {
    await addToWorkspaceCounters(store.db).run(
      trx,
      change.charged,
      change.videosProcessed,
      change.jobsWithFailures,
      change.jobsSettled,
      change.jobsDone,
      jobsNotDone,
      workspaceId,
    );
  }
  for (const [code, count] of change.failures) {
    await addFailures(store.db).run(trx, workspaceId, code, count);
  }
}

/**
 * The batch's daily credits and ledger lines, for all its workspaces in one statement each: every
 * statement inside the transaction is a round trip while it holds its locks.
 */
async function recordCharges(
  trx: Transaction<Database>,
  byWorkspace: readonly [string, WorkspaceChange][],
  now: number,
) {
  const charged = byWorkspace.filter(([, change]) => change.videosProcessed > 0);
  if (charged.length === 0) return;
  const day = utcDay(now);
  await trx
    .insertInto("daily_credits")
    .values(
      charged.map(([workspaceId, change]) => ({ workspace_id: workspaceId, day, credits: change.charged })),
    )
    .onConflict((c) =>
      c
        .columns(["workspace_id", "day"])
        .doUpdateSet((eb) => ({ credits: eb("daily_credits.credits", "+", eb.ref("excluded.credits")) })),
    )
    .execute();
  // One ledger line per charged video, its balance as the videos before it in the batch left it.
  await trx
    .insertInto("credit_ledger")
    .values(
      charged.flatMap(([workspaceId, change]) =>
        change.ledger.map((line) => ({
          id: newId("led", now),
          workspace_id: workspaceId,
          kind: "charge" as const,
          amount: line.amount,
          balance_after: line.balanceAfter,
          created_at: now,
        })),
      ),
    )
    .execute();
}

/**
 * Locks and reads the workspaces of the batch's videos, in id order. One workspace (the common case)
 * is one prepared statement. Several are one statement too: on PostgreSQL a SELECT ... ORDER BY id
 * FOR UPDATE (a multi-row UPDATE would lock them in no promised order); on SQLite, which has no FOR
 * UPDATE and whose single write lock leaves no order to keep, a no-op UPDATE ... RETURNING.
 */
async function lockAndReadWorkspaces(
  store: Store,
  trx: Transaction<Database>,
  settlements: readonly Settlement[],
): Promise<Selectable<WorkspacesTable>[]> {
  const ids = sortedUnique(settlements.map((s) => s.video.workspaceId));
  let rows: Selectable<WorkspacesTable>[];
  if (ids.length <= 1) {
    rows = ids.length === 0 ? [] : await lockAndReadWorkspace(store.db).rows(trx, ids[0] as string);
  } else if (store.dialect === "postgres") {
    rows = await trx
      .selectFrom("workspaces")
      .selectAll()
      .where("id", "in", ids)
      .orderBy("id")
      .forUpdate()
      .execute();
  } else {
    rows = await trx
      .updateTable("workspaces")
      .set((eb) => ({ plan_id: eb.ref("plan_id") }))
      .where("id", "in", ids)
      .returningAll()
      .execute();
  }
  if (rows.length !== ids.length)
    throw new Error(`A workspace of the videos being settled does not exist: ${ids.join(", ")}.`);
  return rows.sort((a, b) => byId(a.id, b.id));
}

/** Moves the batch's videos from their job's `processing` count to `done` or `failed`; settles the job after its last video. */
async function countInJob(
  store: Store,
  trx: Transaction<Database>,
  jobId: string,
  change: JobChange,
  workspace: WorkspaceChange,
  now: number,
): Promise<void> {
  const statement = change.failed > 0 ? countInJobWithFailures : countInJobWithoutFailures;
  const job = await statement(store.db).first(
    trx,
    change.done + change.failed,
    change.done,
    change.failed,
    change.charge,
    jobId,
  );
  if (!job) throw new Error(`Job ${jobId} of a video being settled does not exist.`);
  const counts = {
    queued: job.queued_count,
    processing: job.processing_count,
    done: job.done_count,
    failed: job.failed_count,
  };
  // The job's first failures came in this batch.
  if (change.failed > 0 && counts.failed === change.failed) workspace.jobsWithFailures++;
  if (!isSettled(counts)) return;
  change.settled = true;
  const status = jobStatus(counts) as Exclude<JobStatus, "processing">;
  await trx.updateTable("jobs").set({ status, completed_at: now }).where("id", "=", jobId).execute();
  await recordJobEvents(
    trx,
    {
      jobId,
      workspaceId: change.workspaceId,
      status,
      videos: job.video_count,
      schema: job.schema_label,
      creditsCharged: job.credits_charged,
      counts,
      completedAt: now,
    },
    now,
  );
  workspace.jobsSettled++;
  if (counts.failed === 0) workspace.jobsDone++;
}
