// The webhooks API's responses (and the event type its requests share): each shape defined once, as
// the schema the routes document and serialise by, and as the type (`Static`) the services return.
import { type Static, Type } from "typebox";
import { Page, refTo, Timestamp } from "../http/common-schemas.js";

export const EventType = Type.Union(
  [Type.Literal("job.completed"), Type.Literal("job.failed"), Type.Literal("batch.completed")],
  { "x-error-message": 'must be "job.completed", "job.failed" or "batch.completed".' },
);

// The same event type, named for the answers; requests carry it inline (the body validators know no
// named schemas).
const NamedEventType = Type.Unsafe<Static<typeof EventType>>({ ...EventType, $id: "WebhookEventType" });

export const Endpoint = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(refTo(NamedEventType)),
    disabled: Type.Boolean(),
    created_at: Timestamp,
  },
  { $id: "WebhookEndpoint", description: "A webhook endpoint: never its signing secret." },
);
export type Endpoint = Static<typeof Endpoint>;

export const EndpointList = Type.Object(
  { data: Type.Array(refTo(Endpoint)) },
  { $id: "WebhookEndpointList" },
);

export const CreatedEndpoint = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    secret: Type.String({ description: "The signing secret: shown this once." }),
  },
  { $id: "CreatedWebhookEndpoint" },
);
export type CreatedEndpoint = Static<typeof CreatedEndpoint>;

export const Attempt = Type.Object(
  {
    id: Type.String({ description: "This attempt's id." }),
    delivery_id: Type.String({ description: "The delivery (one event to this endpoint) it belongs to." }),
    event_id: Type.String(),
    event_type: refTo(NamedEventType),
    attempt: Type.Integer({ minimum: 1 }),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's answer, if any." }),
    error: Type.Union([Type.String(), Type.Null()], { description: "Why there was no answer." }),
    duration_ms: Type.Integer({ minimum: 0 }),
    created_at: Timestamp,
  },
  { $id: "DeliveryAttempt", description: "One attempt to deliver an event to an endpoint." },
);
export type Attempt = Static<typeof Attempt>;

export const AttemptPage = Page(Attempt, "DeliveryAttemptList");
export type AttemptPage = Static<typeof AttemptPage>;

export const ResentDelivery = Type.Object(
  { delivery_id: Type.String(), event_id: Type.String() },
  { $id: "ResentDelivery", description: "The delivery queued again." },
);
export type ResentDelivery = Static<typeof ResentDelivery>;

/** The webhooks API's named schemas, for `app.addSchema`, each after the ones it refers to. */
export const webhookComponents = [
  NamedEventType,
  Endpoint,
  EndpointList,
  CreatedEndpoint,
  Attempt,
  AttemptPage,
  ResentDelivery,
];
