// The outbox: a settled job's events and their deliveries, written in the transaction that settles it.
import { type Kysely, sql, type Transaction } from "kysely";
import { newId } from "../domain/ids.js";
import { formatTimestamp } from "../domain/timestamps.js";
import { runWrites, type Write, write } from "../store/combined-writes.js";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import { preparedSqlPerStore } from "../store/prepared-query.js";
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

/** An endpoint of a workspace whose job settled, and the event types it is subscribed to. */
export interface OutboxEndpoint {
  readonly id: string;
  readonly workspaceId: string;
  readonly events: readonly string[];
}

/** The endpoints of the workspaces, for the events of their settled jobs (none read when no job settled). */
export async function endpointsOf(
  trx: Transaction<Database>,
  workspaceIds: readonly string[],
): Promise<OutboxEndpoint[]> {
  if (workspaceIds.length === 0) return [];
  const endpoints = await trx
    .selectFrom("webhook_endpoints")
    .select(["id", "workspace_id", "events"])
    .where("workspace_id", "in", [...new Set(workspaceIds)])
    .execute();
  return endpoints.map((endpoint) => ({
    id: endpoint.id,
    workspaceId: endpoint.workspace_id,
    events: JSON.parse(endpoint.events) as string[],
  }));
}

const insertEvents = preparedSqlPerStore<{ events: string; now: number }, never>((dialect, slots) => {
  const events = databaseSql(dialect).vocabulary.jsonRecords(slots.events, {
    id: "text",
    workspace_id: "text",
    type: "text",
    body: "text",
  });
  return sql`insert into webhook_events (id, workspace_id, type, body, created_at)
    select ${events.fields}, ${slots.now} from ${events.from}`;
});

const insertDeliveries = preparedSqlPerStore<{ deliveries: string; now: number }, never>((dialect, slots) => {
  const deliveries = databaseSql(dialect).vocabulary.jsonRecords(slots.deliveries, {
    id: "text",
    event_id: "text",
    endpoint_id: "text",
    workspace_id: "text",
  });
  return sql`insert into webhook_deliveries (id, event_id, endpoint_id, workspace_id, status, attempts,
      next_attempt_at, lease_owner, lease_expires_at, created_at)
    select ${deliveries.fields}, 'pending', 0, ${slots.now}, null, null, ${slots.now} from ${deliveries.from}`;
});

/**
 * The writes of the jobs' events and of one pending delivery per endpoint subscribed to each. Sent in
 * the settling transaction, an event exists exactly when its job settled: none lost, none invented.
 * A disabled endpoint gets its deliveries too: they wait, unclaimed, until it is re-enabled. However
 * many jobs a settlement closed, their events are one insert and their deliveries another (a batch of
 * one-video jobs closes a job per video). `db` is the store's, for its prepared statements.
 */
export function jobEventWrites(
  db: Kysely<Database>,
  jobs: readonly SettledJobFacts[],
  endpoints: readonly OutboxEndpoint[],
  now: number,
): Write[] {
  const events: { id: string; workspace_id: string; type: WebhookEventType; body: string }[] = [];
  const deliveries: { id: string; event_id: string; endpoint_id: string; workspace_id: string }[] = [];
  for (const job of jobs) {
    for (const type of eventTypesFor(job)) {
      const subscribed = endpoints.filter(
        (e) => e.workspaceId === job.workspaceId && e.events.includes(type),
      );
      if (subscribed.length === 0) continue;
      const eventId = newId("evt", now);
      events.push({
        id: eventId,
        workspace_id: job.workspaceId,
        type,
        body: eventBody(eventId, type, job, now),
      });
      for (const endpoint of subscribed) {
        deliveries.push({
          id: newId("dlv", now),
          event_id: eventId,
          endpoint_id: endpoint.id,
          workspace_id: job.workspaceId,
        });
      }
    }
  }
  if (events.length === 0) return [];
  return [
    write(insertEvents(db), { events: JSON.stringify(events), now }),
    write(insertDeliveries(db), { deliveries: JSON.stringify(deliveries), now }),
  ];
}

/** Records the jobs' events and deliveries inside `trx`, on their own (a settlement sends them with its other writes). */
export async function recordJobEvents(
  store: Store,
  trx: Transaction<Database>,
  jobs: readonly SettledJobFacts[],
  now: number,
): Promise<void> {
  const endpoints = await endpointsOf(
    trx,
    jobs.map((job) => job.workspaceId),
  );
  await runWrites(store, trx, jobEventWrites(store.db, jobs, endpoints, now));
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
