// The outbox: a settled job's events and their deliveries, written in the transaction that settles it.
import type { Insertable, Transaction } from "kysely";
import { newId } from "../domain/ids.js";
import { formatTimestamp } from "../domain/timestamps.js";
import type {
  Database,
  JobStatus,
  WebhookDeliveriesTable,
  WebhookEventsTable,
  WebhookEventType,
} from "../store/tables.js";

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

/** Rows per INSERT: far inside both databases' limits on bound parameters (32,766 and 65,535). */
const rowsPerInsert = 500;

/**
 * Writes the jobs' events and one pending delivery per endpoint subscribed to each. Being in the
 * settling transaction, an event exists exactly when its job settled: none lost, none invented.
 * A disabled endpoint gets its deliveries too: they wait, unclaimed, until it is re-enabled.
 * However many jobs a settlement closed, their endpoints are one read, their events one insert and
 * their deliveries another (a batch of one-video jobs closes a job per video).
 */
export async function recordJobEvents(
  trx: Transaction<Database>,
  jobs: readonly SettledJobFacts[],
  now: number,
): Promise<void> {
  if (jobs.length === 0) return;
  const endpoints = await trx
    .selectFrom("webhook_endpoints")
    .select(["id", "workspace_id", "events"])
    .where("workspace_id", "in", [...new Set(jobs.map((job) => job.workspaceId))])
    .execute();
  if (endpoints.length === 0) return;
  const endpointsOf = new Map<string, { id: string; events: string[] }[]>();
  for (const endpoint of endpoints) {
    const list = endpointsOf.get(endpoint.workspace_id) ?? [];
    list.push({ id: endpoint.id, events: JSON.parse(endpoint.events) as string[] });
    endpointsOf.set(endpoint.workspace_id, list);
  }
  const events: Insertable<WebhookEventsTable>[] = [];
  const deliveries: Insertable<WebhookDeliveriesTable>[] = [];
  for (const job of jobs) {
    for (const type of eventTypesFor(job)) {
      const subscribed = (endpointsOf.get(job.workspaceId) ?? []).filter((e) => e.events.includes(type));
      if (subscribed.length === 0) continue;
      const eventId = newId("evt", now);
      events.push({
        id: eventId,
        workspace_id: job.workspaceId,
        type,
        body: eventBody(eventId, type, job, now),
        created_at: now,
      });
      for (const endpoint of subscribed) {
        deliveries.push({
          id: newId("dlv", now),
          event_id: eventId,
          endpoint_id: endpoint.id,
          workspace_id: job.workspaceId,
          status: "pending",
          attempts: 0,
          next_attempt_at: now,
          lease_owner: null,
          lease_expires_at: null,
          created_at: now,
        });
      }
    }
  }
  for (let start = 0; start < events.length; start += rowsPerInsert) {
    await trx
      .insertInto("webhook_events")
      .values(events.slice(start, start + rowsPerInsert))
      .execute();
  }
  for (let start = 0; start < deliveries.length; start += rowsPerInsert) {
    await trx
      .insertInto("webhook_deliveries")
      .values(deliveries.slice(start, start + rowsPerInsert))
      .execute();
  }
}

/** The event as its deliveries send it. Rows are never sent in a webhook: the job read is the handover. */
function eventBody(eventId: string, type: WebhookEventType, job: SettledJobFacts, now: number): string {
  return JSON.stringify({
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
}
