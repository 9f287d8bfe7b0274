// `/v1/webhooks`: endpoints that learn of settled jobs, and what was delivered to them.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { callerOf } from "../access/access-control.js";
import { errorAnswers, pageParameters, refTo } from "../http/common-schemas.js";
import {
  AttemptPage,
  CreatedEndpoint,
  Endpoint,
  EndpointList,
  EventType,
  ResentDelivery,
  webhookComponents,
} from "./webhook-schemas.js";
import type { WebhookEndpoints } from "./webhook-endpoints.js";

const CreateBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        "An https:// URL without a user name or password, exactly as sent: whitespace or an invisible character around or inside it is 400. With VIDROWS_WEBHOOK_ALLOW_PRIVATE=1 (development), http:// is accepted for localhost and literal loopback or private addresses.",
    }),
    events: Type.Optional(
      Type.Array(EventType, {
        minItems: 1,
        uniqueItems: true,
        description: "Default: all three.",
      }),
    ),
  },
  { additionalProperties: false },
);

const PatchBody = Type.Object(
  { disabled: Type.Boolean({ description: "`false` re-enables a disabled endpoint; `true` pauses it." }) },
  { additionalProperties: false },
);

const EndpointParams = Type.Object({ id: Type.String() });

const PageQuery = Type.Object(
  {
    ...pageParameters,
  },
  { additionalProperties: false },
);

export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookEndpoints }> = async (
  app,
  { webhooks },
) => {
  const tags = ["Webhooks"];
  for (const schema of webhookComponents) app.addSchema(schema);

  app.get(
    "/v1/webhooks",
    {
      schema: {
        operationId: "listWebhooks",
        summary: "List webhook endpoints",
        description: "Signing secrets are never listed.",
        tags,
        response: { 200: refTo(EndpointList, { description: "The endpoints." }), ...errorAnswers() },
      },
    },
    async (request) => ({ data: await webhooks.list(callerOf(request).workspaceId) }),
  );

  app.post(
    "/v1/webhooks",
    {
      schema: {
        operationId: "createWebhook",
        summary: "Create a webhook endpoint",
        description:
          "The signing secret is in this response only. 403 `plan_limit` on a plan without webhooks or past its endpoint count.",
        tags,
        body: CreateBody,
        response: {
          201: refTo(CreatedEndpoint, { description: "Created; the signing secret is in this answer only." }),
          ...errorAnswers({ body: true, codes: ["plan_limit"] }),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      return reply.code(201).send(await webhooks.create(caller.workspaceId, caller.plan, request.body));
    },
  );

  app.patch(
    "/v1/webhooks/:id",
    {
      schema: {
        operationId: "updateWebhook",
        summary: "Pause or re-enable a webhook endpoint",
        tags,
        params: EndpointParams,
        body: PatchBody,
        response: {
          200: refTo(Endpoint, { description: "The endpoint as it now is." }),
          ...errorAnswers({ body: true, codes: ["webhook_not_found"] }),
        },
      },
    },
    async (request) =>
      webhooks.setDisabled(callerOf(request).workspaceId, request.params.id, request.body.disabled),
  );

  app.delete(
    "/v1/webhooks/:id",
    {
      schema: {
        operationId: "deleteWebhook",
        summary: "Remove a webhook endpoint",
        tags,
        params: EndpointParams,
        response: {
          204: Type.Null({ description: "Removed; no body." }),
          ...errorAnswers({ body: true, codes: ["webhook_not_found"] }),
        },
      },
    },
    async (request, reply) => {
      await webhooks.remove(callerOf(request).workspaceId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/v1/webhooks/:id/deliveries",
    {
      schema: {
        operationId: "listWebhookDeliveries",
        summary: "List delivery attempts",
        description: "Every attempt made to the endpoint, newest first.",
        tags,
        params: EndpointParams,
        querystring: PageQuery,
        response: {
          200: refTo(AttemptPage, { description: "A page of attempts." }),
          ...errorAnswers({ codes: ["webhook_not_found"] }),
        },
      },
    },
    async (request) => webhooks.attempts(callerOf(request).workspaceId, request.params.id, request.query),
  );

  app.post(
    "/v1/webhooks/:id/deliveries/:delivery_id/resend",
    {
      schema: {
        operationId: "resendWebhookDelivery",
        summary: "Send an event again",
        description:
          "Queues the delivery's event (named by a `dlv_` or `att_` id from the list) for this endpoint again, with the same `webhook-id`.",
        tags,
        params: Type.Object({ id: Type.String(), delivery_id: Type.String() }),
        response: {
          202: refTo(ResentDelivery, { description: "Queued again." }),
          ...errorAnswers({ body: true, codes: ["webhook_not_found", "delivery_not_found"] }),
        },
      },
    },
    async (request, reply) => {
      const queued = await webhooks.resend(
        callerOf(request).workspaceId,
        request.params.id,
        request.params.delivery_id,
      );
      return reply.code(202).send(queued);
    },
  );
};
