// The outbox: a settled job's events and their deliveries, written in the transaction that settles it.
import type { Transaction } from "kysely";
import { newId } from "../domain/ids.js";
import { formatTimestamp } from "../domain/timestamps.js";
import type { Database, JobStatus, WebhookEventType } from "../store/tables.js";

export interface SettledJobFacts {
  readonly jobId: string;
  readonly workspaceId: string;
  readonly status: Exclude<JobStatus, "processing">;
  readonly videos: number;
  readonly schema: string;
  readonly creditsCharged: number;
  readonly counts: { queued: number; processing: number; done: number; failed: number };
  readonly completedAt: number;
}

/** `job.completed` (done or partial) or `job.failed`, and `batch.completed` too for jobs of two or more videos. */
export function eventTypesFor(job: Pick<SettledJobFacts, "status" | "videos">): WebhookEventType[] {
  const types: WebhookEventType[] = [job.status === "failed" ? "job.failed" : "job.completed"];
  if (job.videos >= 2) types.push("batch.completed");
  return types;
}

/**
 * Writes the job's events and one pending delivery per endpoint subscribed to each. Being in the
 * settling transaction, an event exists exactly when its job settled: none lost, none invented.
 * A disabled endpoint gets its deliveries too: they wait, unclaimed, until it is re-enabled.
 */
export async function recordJobEvents(
  trx: Transaction<Database>,
  job: SettledJobFacts,
  now: number,
): Promise<void> {
  const endpoints = await trx
    .selectFrom("webhook_endpoints")
    .select(["id", "events"])
    .where("workspace_id", "=", job.workspaceId)
    .execute();
  if (endpoints.length === 0) return;
  for (const type of eventTypesFor(job)) {
    const subscribed = endpoints.filter((e) => (JSON.parse(e.events) as string[]).includes(type));
    if (subscribed.length === 0) continue;
    const eventId = newId("evt", now);
    // Rows are never sent in a webhook: the job read is the handover.
    const body = JSON.stringify({
      id: eventId,
      type,
      created_at: formatTimestamp(now),
      data: {
        job_id: job.jobId,
        status: job.status,
        videos: job.videos,
        schema: job.schema,
        credits_charged: job.creditsCharged,
        counts: job.counts,
        completed_at: formatTimestamp(job.completedAt),
      },
    });
    await trx
      .insertInto("webhook_events")
      .values({ id: eventId, workspace_id: job.workspaceId, type, body, created_at: now })
      .execute();
    await trx
      .insertInto("webhook_deliveries")
      .values(
        subscribed.map((endpoint) => ({
          id: newId("dlv", now),
          event_id: eventId,
          endpoint_id: endpoint.id,
          workspace_id: job.workspaceId,
          status: "pending" as const,
          attempts: 0,
          next_attempt_at: now,
          lease_owner: null,
          lease_expires_at: null,
          created_at: now,
        })),
      )
      .execute();
  }
}
