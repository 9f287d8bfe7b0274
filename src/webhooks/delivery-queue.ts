// The deliveries as a queue in the store: claiming due ones with a lease, recording each attempt.
import { newId } from "../domain/ids.js";
import type { Transaction } from "kysely";
import type { Store } from "../store/database.js";
import { databaseSql } from "../store/database-sql.js";
import type { Database, WebhookEventType } from "../store/tables.js";

export interface ClaimedDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly eventType: WebhookEventType;
  readonly body: string;
  readonly endpointId: string;
  readonly url: string;
  readonly secret: string;
  /** Attempts made before this one. */
  readonly attemptsBefore: number;
}

/** The error of an attempt whose outcome was lost (see `claimDeliveries`). */
export const lostAttemptError =
  "The outcome of this attempt was lost: the process making it stopped before recording it. " +
  "The receiver may have received the event; the attempt after this one sends it again, with the same webhook-id.";

/**
 * Claims due deliveries to enabled endpoints for `ownerId` until `now + leaseMs`, so that no two
 * dispatchers make the same attempt. The candidates are picked first (on PostgreSQL locked with FOR
 * UPDATE SKIP LOCKED; as a sub-select of the UPDATE, the planner could run it again per row and take
 * more than `limit`: see `pick` in pipeline/claims.ts), then updated by id, only while still claimable.
 *
 * A candidate whose lease ran out while held was being attempted by a process that stopped (a
 * graceful stop hands its deliveries back with no lease): that attempt's outcome is lost, and it is
 * recorded as such, in the same transaction, so that the receiver's second copy shows as attempt 2.
 */
export async function claimDeliveries(
  store: Store,
  ownerId: string,
  limit: number,
  leaseMs: number,
  now = Date.now(),
): Promise<ClaimedDelivery[]> {
  const claimed = await store.db.transaction().execute(async (trx) => {
    const due = trx
      .selectFrom("webhook_deliveries")
      .select(["id", "lease_owner"])
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((w) => w.or([w("lease_expires_at", "is", null), w("lease_expires_at", "<", now)]))
      // A disabled endpoint receives nothing until re-enabled; its deliveries wait.
      .where("endpoint_id", "in", (e) =>
        e.selectFrom("webhook_endpoints").select("id").where("disabled", "=", 0),
      )
      .orderBy("next_attempt_at")
      .limit(limit);
    const picked = await databaseSql(store.dialect).vocabulary.skippingLockedRows(due).execute();
    if (picked.length === 0) return [];
    const taken = await trx
      .updateTable("webhook_deliveries")
      .set({ lease_owner: ownerId, lease_expires_at: now + leaseMs })
      .where(
        "id",
        "in",
        picked.map((row) => row.id),
      )
      .where("status", "=", "pending")
      .where((w) => w.or([w("lease_expires_at", "is", null), w("lease_expires_at", "<", now)]))
      .returning(["id", "event_id", "endpoint_id", "attempts"])
      .execute();
    const abandoned = new Set(picked.filter((row) => row.lease_owner !== null).map((row) => row.id));
    const lost = taken.filter((row) => abandoned.has(row.id));
    if (lost.length > 0) await recordLostAttempts(trx, lost, now);
    return taken.map((row) => (abandoned.has(row.id) ? { ...row, attempts: row.attempts + 1 } : row));
  });
  if (claimed.length === 0) return [];
  const events = await store.db
    .selectFrom("webhook_events")
    .select(["id", "type", "body"])
    .where("id", "in", [...new Set(claimed.map((d) => d.event_id))])
    .execute();
  const endpoints = await store.db
    .selectFrom("webhook_endpoints")
    .select(["id", "url", "secret"])
    .where("id", "in", [...new Set(claimed.map((d) => d.endpoint_id))])
    .execute();
  const eventById = new Map(events.map((e) => [e.id, e]));
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const ready: ClaimedDelivery[] = [];
  for (const d of claimed) {
    const event = eventById.get(d.event_id);
    const endpoint = endpointById.get(d.endpoint_id);
    // An endpoint deleted since: its delivery is dropped with it (see webhook endpoints' removal).
    if (!event || !endpoint) continue;
    ready.push({
      deliveryId: d.id,
      eventId: event.id,
      eventType: event.type,
      body: event.body,
      endpointId: endpoint.id,
      url: endpoint.url,
      secret: endpoint.secret,
      attemptsBefore: d.attempts,
    });
  }
  return ready;
}

/** One attempt row per delivery whose attempt was lost, counted in its attempts. */
async function recordLostAttempts(
  trx: Transaction<Database>,
  lost: readonly { id: string; event_id: string; endpoint_id: string; attempts: number }[],
  now: number,
): Promise<void> {
  const events = await trx
    .selectFrom("webhook_events")
    .select(["id", "type"])
    .where("id", "in", [...new Set(lost.map((d) => d.event_id))])
    .execute();
  const typeOf = new Map(events.map((e) => [e.id, e.type]));
  const rows = lost.flatMap((d) => {
    const type = typeOf.get(d.event_id);
    if (type === undefined) return [];
    return [
      {
        id: newId("att", now),
        delivery_id: d.id,
        endpoint_id: d.endpoint_id,
        event_id: d.event_id,
        event_type: type,
        attempt: d.attempts + 1,
        status_code: null,
        error: lostAttemptError,
        duration_ms: 0,
        created_at: now,
      },
    ];
  });
  if (rows.length > 0) await trx.insertInto("webhook_attempts").values(rows).execute();
  await trx
    .updateTable("webhook_deliveries")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where(
      "id",
      "in",
      lost.map((d) => d.id),
    )
    .execute();
}

export interface AttemptRecord {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

export type AttemptVerdict =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly afterMs: number }
  | { readonly kind: "give_up"; readonly reason: string };

/**
 * What an attempt's answer means: any 2xx is delivered; 410 Gone means the receiver wants nothing
 * more; anything else is retried on the schedule until its attempts are used up.
 */
export function judgeAttempt(
  result: AttemptRecord,
  attemptNumber: number,
  retryScheduleSeconds: readonly number[],
) {
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) {
    return { kind: "delivered" } as const;
  }
  if (result.statusCode === 410)
    return { kind: "give_up", reason: "the endpoint answered 410 Gone" } as const;
  const wait = retryScheduleSeconds[attemptNumber - 1];
  if (wait === undefined) {
    return { kind: "give_up", reason: `the event failed all ${attemptNumber} attempts` } as const;
  }
  return { kind: "retry", afterMs: wait * 1000 } as const;
}

/**
 * Records an attempt and its consequence in one transaction: the attempt row, the delivery's new state
 * and, when the endpoint gave up or used every attempt, the endpoint disabled.
 */
export async function recordAttempt(
  store: Store,
  ownerId: string,
  delivery: ClaimedDelivery,
  result: AttemptRecord,
  verdict: AttemptVerdict,
  now = Date.now(),
): Promise<void> {
  const attempt = delivery.attemptsBefore + 1;
  await store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("webhook_attempts")
      .values({
        id: newId("att", now),
        delivery_id: delivery.deliveryId,
        endpoint_id: delivery.endpointId,
        event_id: delivery.eventId,
        event_type: delivery.eventType,
        attempt,
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
        created_at: now,
      })
      .execute();
    await trx
      .updateTable("webhook_deliveries")
      .set({
        attempts: attempt,
        status: verdict.kind === "delivered" ? "delivered" : verdict.kind === "retry" ? "pending" : "failed",
        next_attempt_at: verdict.kind === "retry" ? now + verdict.afterMs : now,
        lease_owner: null,
        lease_expires_at: null,
      })
      .where("id", "=", delivery.deliveryId)
      .where("lease_owner", "=", ownerId)
      .execute();
    if (verdict.kind === "give_up") {
      await trx
        .updateTable("webhook_endpoints")
        .set({ disabled: 1 })
        .where("id", "=", delivery.endpointId)
        .execute();
    }
  });
}

/** Hands deliveries back at once (on shutdown) so another dispatcher takes them over. */
export async function releaseDeliveries(store: Store, ownerId: string, deliveryIds: string[]): Promise<void> {
  await store.db
    .updateTable("webhook_deliveries")
    .set({ lease_owner: null, lease_expires_at: null })
    .where("id", "in", deliveryIds)
    .where("lease_owner", "=", ownerId)
    .execute();
}
