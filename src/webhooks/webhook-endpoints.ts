// Webhook endpoints of a workspace: creating within the plan, listing, pausing, removing; and the
// record of delivery attempts, with resending.
import { newId } from "../domain/ids.js";
import { formatTimestamp } from "../domain/timestamps.js";
import { ApiError } from "../http/api-errors.js";
import type { Plan } from "../domain/plans.js";
import type { Store } from "../store/database.js";
import type { WebhookEventType } from "../store/tables.js";
import { lockWorkspace } from "../store/workspace-lock.js";
import { generateSigningSecret } from "./signing.js";
import { checkWebhookUrl, type WebhookUrlRules } from "./webhook-url.js";
import type { Attempt, AttemptPage, CreatedEndpoint, Endpoint, ResentDelivery } from "./webhook-schemas.js";

export const allEventTypes: WebhookEventType[] = ["job.completed", "job.failed", "batch.completed"];

function notFound(id: string): ApiError {
  return new ApiError("webhook_not_found", `No webhook endpoint ${id} in this workspace.`, "id");
}

export class WebhookEndpoints {
  constructor(
    private readonly store: Store,
    private readonly urlRules: WebhookUrlRules,
  ) {}

  async list(workspaceId: string): Promise<Endpoint[]> {
    const rows = await this.store.db
      .selectFrom("webhook_endpoints")
      .select(["id", "url", "events", "disabled", "created_at"])
      .where("workspace_id", "=", workspaceId)
      .orderBy("id", "desc")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      events: JSON.parse(row.events) as WebhookEventType[],
      disabled: row.disabled === 1,
      created_at: formatTimestamp(row.created_at),
    }));
  }

  async create(
    workspaceId: string,
    plan: Plan,
    input: { url: string; events?: WebhookEventType[] },
  ): Promise<CreatedEndpoint> {
    checkWebhookUrl(input.url, this.urlRules);
    if (plan.webhookEndpoints === 0) {
      throw new ApiError("plan_limit", `The ${plan.name} plan has no webhooks; change plans to use them.`);
    }
    const id = newId("wh");
    const secret = generateSigningSecret();
    await this.store.db.transaction().execute(async (trx) => {
      // Two concurrent creations must not both take the last free place.
      await lockWorkspace(trx, workspaceId);
      const { count } = await trx
        .selectFrom("webhook_endpoints")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= plan.webhookEndpoints) {
        throw new ApiError(
          "plan_limit",
          `The ${plan.name} plan allows ${plan.webhookEndpoints} webhook endpoints; remove one or change plans.`,
        );
      }
      await trx
        .insertInto("webhook_endpoints")
        .values({
          id,
          workspace_id: workspaceId,
          url: input.url,
          events: JSON.stringify(input.events ?? allEventTypes),
          secret,
          disabled: 0,
          created_at: Date.now(),
        })
        .execute();
    });
    return { id, url: input.url, secret };
  }

  /** Removes the endpoint with its pending deliveries and its record of attempts. */
  async remove(workspaceId: string, endpointId: string): Promise<void> {
    await this.store.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom("webhook_endpoints")
        .where("id", "=", endpointId)
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      if (deleted.numDeletedRows === 0n) throw notFound(endpointId);
      await trx.deleteFrom("webhook_deliveries").where("endpoint_id", "=", endpointId).execute();
      await trx.deleteFrom("webhook_attempts").where("endpoint_id", "=", endpointId).execute();
    });
  }

  /** Pauses (`true`) or re-enables (`false`) an endpoint; waiting deliveries resume on re-enabling. */
  async setDisabled(workspaceId: string, endpointId: string, disabled: boolean): Promise<Endpoint> {
    const updated = await this.store.db
      .updateTable("webhook_endpoints")
      .set({ disabled: disabled ? 1 : 0 })
      .where("id", "=", endpointId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw notFound(endpointId);
    const view = (await this.list(workspaceId)).find((e) => e.id === endpointId);
    if (!view) throw notFound(endpointId);
    return view;
  }

  /** Attempts made to the endpoint, newest first, paged. */
  async attempts(
    workspaceId: string,
    endpointId: string,
    page: { limit: number; offset: number },
  ): Promise<AttemptPage> {
    await this.requireEndpoint(workspaceId, endpointId);
    const rows = await this.store.db
      .selectFrom("webhook_attempts")
      .selectAll()
      .where("endpoint_id", "=", endpointId)
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { total } = await this.store.db
      .selectFrom("webhook_attempts")
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .where("endpoint_id", "=", endpointId)
      .executeTakeFirstOrThrow();
    const data: Attempt[] = rows.map((row) => ({
      id: row.id,
      delivery_id: row.delivery_id,
      event_id: row.event_id,
      event_type: row.event_type,
      attempt: row.attempt,
      status_code: row.status_code,
      error: row.error,
      duration_ms: row.duration_ms,
      created_at: formatTimestamp(row.created_at),
    }));
    const count = Number(total);
    return {
      data,
      pagination: {
        total: count,
        limit: page.limit,
        offset: page.offset,
        has_more: page.offset + data.length < count,
      },
    };
  }

  /**
   * Queues the delivery's event for the endpoint again, as a new delivery with attempts from 1. The
   * delivery is named by its `dlv_` id or by the `att_` id of one of its attempts, as listed.
   */
  async resend(workspaceId: string, endpointId: string, deliveryId: string): Promise<ResentDelivery> {
    await this.requireEndpoint(workspaceId, endpointId);
    const earlier = deliveryId.startsWith("att_")
      ? await this.store.db
          .selectFrom("webhook_attempts")
          .select(["event_id"])
          .where("id", "=", deliveryId)
          .where("endpoint_id", "=", endpointId)
          .executeTakeFirst()
      : await this.store.db
          .selectFrom("webhook_deliveries")
          .select(["event_id"])
          .where("id", "=", deliveryId)
          .where("endpoint_id", "=", endpointId)
          .executeTakeFirst();
    if (!earlier) {
      throw new ApiError(
        "delivery_not_found",
        `No delivery ${deliveryId} to webhook endpoint ${endpointId}.`,
        "delivery_id",
      );
    }
    const now = Date.now();
    const id = newId("dlv", now);
    await this.store.db
      .insertInto("webhook_deliveries")
      .values({
        id,
        event_id: earlier.event_id,
        endpoint_id: endpointId,
        workspace_id: workspaceId,
        status: "pending",
        attempts: 0,
        next_attempt_at: now,
        lease_owner: null,
        lease_expires_at: null,
        created_at: now,
      })
      .execute();
    return { delivery_id: id, event_id: earlier.event_id };
  }

  private async requireEndpoint(workspaceId: string, endpointId: string): Promise<void> {
    const found = await this.store.db
      .selectFrom("webhook_endpoints")
      .select("id")
      .where("id", "=", endpointId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (!found) throw notFound(endpointId);
  }
}
