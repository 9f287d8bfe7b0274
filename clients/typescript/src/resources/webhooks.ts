// vr.webhooks: endpoints that learn of settled jobs, their delivery attempts, and resending an event.
import type {
  CreateWebhookBody,
  CreatedWebhookEndpoint,
  DeliveryAttemptPage,
  DeliveryAttemptQuery,
  ResentDelivery,
  UpdateWebhookBody,
  WebhookEndpoint,
  WebhookEndpointList,
} from "../api-types.js";
import type { RequestOptions, Transport } from "../transport.js";

const id = (value: string) => encodeURIComponent(value);

export class Webhooks {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/webhooks`: signing secrets are never listed. */
  list(options: RequestOptions = {}): Promise<WebhookEndpointList> {
    return this.transport.send({ method: "GET", path: "/v1/webhooks", retry: "repeatable", ...options });
  }

  /** `POST /v1/webhooks`: the signing `secret` is in this answer only. */
  create(body: CreateWebhookBody, options: RequestOptions = {}): Promise<CreatedWebhookEndpoint> {
    return this.transport.send({ method: "POST", path: "/v1/webhooks", body, retry: "once", ...options });
  }

  /** `PATCH /v1/webhooks/{id}`: `{disabled: true}` pauses the endpoint, `{disabled: false}` re-enables it. */
  update(
    endpointId: string,
    body: UpdateWebhookBody,
    options: RequestOptions = {},
  ): Promise<WebhookEndpoint> {
    return this.transport.send({
      method: "PATCH",
      path: `/v1/webhooks/${id(endpointId)}`,
      body,
      retry: "repeatable",
      ...options,
    });
  }

  /**
   * `DELETE /v1/webhooks/{id}`. When a retry meets `webhook_not_found`, the earlier attempt removed the
   * endpoint before its answer was lost, and the delete has succeeded.
   */
  async delete(endpointId: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({
      method: "DELETE",
      path: `/v1/webhooks/${id(endpointId)}`,
      retry: "repeatable",
      retryAnswerIsSuccess: (error) => error.code === "webhook_not_found",
      ...options,
    });
  }

  /** `GET /v1/webhooks/{id}/deliveries`: every attempt made to the endpoint, newest first. */
  attempts(
    endpointId: string,
    query: DeliveryAttemptQuery = {},
    options: RequestOptions = {},
  ): Promise<DeliveryAttemptPage> {
    return this.transport.send({
      method: "GET",
      path: `/v1/webhooks/${id(endpointId)}/deliveries`,
      query,
      retry: "repeatable",
      ...options,
    });
  }

  /** `POST /v1/webhooks/{id}/deliveries/{delivery_id}/resend`: queues the event again, same `webhook-id`. */
  resend(endpointId: string, deliveryId: string, options: RequestOptions = {}): Promise<ResentDelivery> {
    return this.transport.send({
      method: "POST",
      path: `/v1/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}/resend`,
      retry: "once",
      ...options,
    });
  }
}
