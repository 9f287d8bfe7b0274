// Settling a video: its outcome, its charge, its job's counts and status, and the usage counters,
// all in one transaction, so a video is charged exactly once or not at all.
import type { Transaction } from "kysely";
import { cycleContaining } from "../domain/billing-cycle.js";
import { newId } from "../domain/ids.js";
import { isSettled, jobStatus } from "../domain/job-status.js";
import { creditsForDuration } from "../domain/pricing.js";
import { utcDay } from "../domain/timestamps.js";
import type { Row } from "../extraction/extractor.js";
import type { PlanTable } from "../plans.js";
import { renewCycleIfDue } from "../services/workspaces.js";
import type { Store } from "../store/database.js";
import type { Database, JobStatus } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import { recordJobEvents } from "../webhooks/outbox.js";

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

class LeaseLost extends Error {}

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

export async function settleVideo(
  store: Store,
  plans: PlanTable,
  workerId: string,
  video: SettledVideo,
  proposed: VideoOutcome,
  now = Date.now(),
): Promise<SettlementResult> {
  try {
    return await store.db.transaction().execute(async (trx) => {
      // Rows are locked in one order, video then job then workspace, the order claims take them in
      // too: on PostgreSQL a settlement holding the workspace while a claim held the job and wanted
      // the workspace was a deadlock, and the video was stuck until its lease ran out.
      const held = await trx
        .updateTable("videos")
        .set((eb) => ({ lease_owner: eb.ref("lease_owner") }))
        .where("id", "=", video.videoId)
        .where("lease_owner", "=", workerId)
        .where("status", "=", "processing")
        .executeTakeFirst();
      if (held.numUpdatedRows === 0n) throw new LeaseLost();
      await trx
        .updateTable("jobs")
        .set((eb) => ({ status: eb.ref("status") }))
        .where("id", "=", video.jobId)
        .execute();
      // Settlements of one workspace take turns, so two cannot both spend the last credits.
      await lockWorkspace(trx, video.workspaceId);
      let workspace = await trx
        .selectFrom("workspaces")
        .selectAll()
        .where("id", "=", video.workspaceId)
        .executeTakeFirstOrThrow();
      const plan = plans.get(workspace.plan_id);
      const cycleDue = cycleContaining(workspace.created_at, now).startedAt > workspace.cycle_started_at;
      if (plan && cycleDue) workspace = await renewCycleIfDue(trx, video.workspaceId, plan, now);
      const { charge, outcome } = priceOrRefusal(proposed, workspace);

      const written = await trx
        .updateTable("videos")
        .set(
          outcome.kind === "done"
            ? {
                status: "done",
                rows: JSON.stringify(outcome.rows),
                row_count: outcome.rows.length,
                duration_seconds: Math.round(outcome.durationSeconds),
                chunk_count: outcome.chunkCount,
                credits_charged: charge,
                lease_owner: null,
                lease_expires_at: null,
                settled_at: now,
              }
            : {
                status: "failed",
                error_code: outcome.code,
                error_message: outcome.message,
                error_retryable: outcome.retryable ? 1 : 0,
                credits_charged: 0,
                lease_owner: null,
                lease_expires_at: null,
                settled_at: now,
              },
        )
        .where("id", "=", video.videoId)
        .where("lease_owner", "=", workerId)
        .where("status", "=", "processing")
        .executeTakeFirst();
      if (written.numUpdatedRows === 0n) throw new LeaseLost();

      if (outcome.kind === "done") await chargeWorkspace(trx, video.workspaceId, charge, now);
      else await countFailure(trx, video.workspaceId, outcome.code);
      const jobSettled = await countInJob(trx, video, outcome.kind, charge, now);
      return { kind: "settled" as const, status: outcome.kind, jobSettled };
    });
  } catch (error) {
    if (error instanceof LeaseLost) return { kind: "lost" };
    throw error;
  }
}

async function chargeWorkspace(trx: Transaction<Database>, workspaceId: string, charge: number, now: number) {
  const after = await trx
    .updateTable("workspaces")
    .set((eb) => ({
      balance: eb("balance", "-", charge),
      used_this_cycle: eb("used_this_cycle", "+", charge),
      videos_processed: eb("videos_processed", "+", 1),
    }))
    .where("id", "=", workspaceId)
    .returning("balance")
    .executeTakeFirstOrThrow();
  await trx
    .insertInto("daily_credits")
    .values({ workspace_id: workspaceId, day: utcDay(now), credits: charge })
    .onConflict((c) =>
      c
        .columns(["workspace_id", "day"])
        .doUpdateSet((eb) => ({ credits: eb("daily_credits.credits", "+", charge) })),
    )
    .execute();
  await trx
    .insertInto("credit_ledger")
    .values({
      id: newId("led", now),
      workspace_id: workspaceId,
      kind: "charge",
      amount: -charge,
      balance_after: after.balance,
      created_at: now,
    })
    .execute();
}

async function countFailure(trx: Transaction<Database>, workspaceId: string, code: string) {
  await trx
    .insertInto("failure_counts")
    .values({ workspace_id: workspaceId, code, count: 1 })
    .onConflict((c) =>
      c
        .columns(["workspace_id", "code"])
        .doUpdateSet((eb) => ({ count: eb("failure_counts.count", "+", 1) })),
    )
    .execute();
}

/** Moves the video from its job's `processing` count to `done` or `failed`; settles the job after its last video. */
async function countInJob(
  trx: Transaction<Database>,
  video: SettledVideo,
  status: "done" | "failed",
  charge: number,
  now: number,
): Promise<boolean> {
  const job = await trx
    .updateTable("jobs")
    .set((eb) => ({
      processing_count: eb("processing_count", "-", 1),
      done_count: status === "done" ? eb("done_count", "+", 1) : eb.ref("done_count"),
      failed_count: status === "failed" ? eb("failed_count", "+", 1) : eb.ref("failed_count"),
      has_failures: status === "failed" ? 1 : eb.ref("has_failures"),
      credits_charged: eb("credits_charged", "+", charge),
    }))
    .where("id", "=", video.jobId)
    .returning([
      "queued_count",
      "processing_count",
      "done_count",
      "failed_count",
      "video_count",
      "schema_label",
      "credits_charged",
    ])
    .executeTakeFirstOrThrow();
  const counts = {
    queued: job.queued_count,
    processing: job.processing_count,
    done: job.done_count,
    failed: job.failed_count,
  };
  const firstFailure = status === "failed" && counts.failed === 1;
  const settled = isSettled(counts);
  if (settled) {
    const status = jobStatus(counts) as Exclude<JobStatus, "processing">;
    await trx.updateTable("jobs").set({ status, completed_at: now }).where("id", "=", video.jobId).execute();
    await recordJobEvents(
      trx,
      {
        jobId: video.jobId,
        workspaceId: video.workspaceId,
        status,
        videos: job.video_count,
        schema: job.schema_label,
        creditsCharged: job.credits_charged,
        counts,
        completedAt: now,
      },
      now,
    );
  }
  if (settled || firstFailure) {
    await trx
      .updateTable("workspaces")
      .set((eb) => ({
        jobs_with_failures: firstFailure ? eb("jobs_with_failures", "+", 1) : eb.ref("jobs_with_failures"),
        jobs_processing: settled ? eb("jobs_processing", "-", 1) : eb.ref("jobs_processing"),
        jobs_done: settled && counts.failed === 0 ? eb("jobs_done", "+", 1) : eb.ref("jobs_done"),
        jobs_failed: settled && counts.failed > 0 ? eb("jobs_failed", "+", 1) : eb.ref("jobs_failed"),
      }))
      .where("id", "=", video.workspaceId)
      .execute();
  }
  return settled;
}
