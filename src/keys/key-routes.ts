// `/v1/keys`: list, create and revoke the workspace's API keys.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { type MaybePromise, whenReady } from "../concurrency/maybe-promise.js";
import { callerOf, contextOf } from "../access/access-control.js";
import type { RequestContext } from "../http/request-context.js";
import { sendJsonAnswer } from "../http/json-answers.js";
import { errorAnswers, refTo } from "../http/common-schemas.js";
import { type ApiKey, ApiKeyList, CreatedKey, Environment, keyComponents } from "./key-schemas.js";
import type { ApiKeyService } from "./api-keys.js";

const CreateKeyBody = Type.Object(
  {
    label: Type.Optional(Type.String({ maxLength: 100 })),
    note: Type.Optional(Type.String({ maxLength: 200, description: "For you; never shown in lists." })),
    environment: Type.Optional(Environment),
  },
  { additionalProperties: false },
);

const KeyIdParams = Type.Object({ id: Type.String() });

export interface KeyRouteOptions {
  readonly apiKeys: ApiKeyService;
  /** The key list, answered at once when remembered (see remembered-reads.ts). */
  readonly keyLists: { list(context: RequestContext): MaybePromise<ApiKey[]> };
}

export const keyRoutes: FastifyPluginAsyncTypebox<KeyRouteOptions> = async (app, { apiKeys, keyLists }) => {
  for (const schema of keyComponents) app.addSchema(schema);

  app.get(
    "/v1/keys",
    {
      schema: {
        operationId: "listKeys",
        summary: "List API keys",
        description:
          "Every key of the workspace, revoked ones included, newest first. Full keys are never listed.",
        tags: ["API keys"],
        response: { 200: refTo(ApiKeyList, { description: "The workspace's keys." }), ...errorAnswers() },
      },
    },
    (request, reply) =>
      whenReady(keyLists.list(contextOf(request)), (keys) => {
        sendJsonAnswer(reply, { data: keys }, keys);
      }),
  );

  app.post(
    "/v1/keys",
    {
      schema: {
        operationId: "createKey",
        summary: "Create an API key",
        description:
          "The full key is in this response only; store it now. 403 `plan_limit` past the plan's allowance.",
        tags: ["API keys"],
        body: CreateKeyBody,
        response: {
          201: refTo(CreatedKey, { description: "Created; the full key is in this answer only." }),
          ...errorAnswers({ body: true, codes: ["plan_limit"] }),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const created = await apiKeys.create(caller.workspaceId, caller.plan, request.body);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    "/v1/keys/:id",
    {
      schema: {
        operationId: "revokeKey",
        summary: "Revoke an API key",
        description: "Immediate on every server; cannot be undone. Revoking a revoked key succeeds again.",
        tags: ["API keys"],
        params: KeyIdParams,
        response: {
          204: Type.Null({ description: "Revoked; no body." }),
          ...errorAnswers({ body: true, codes: ["key_not_found"] }),
        },
      },
    },
    async (request, reply) => {
      await apiKeys.revoke(callerOf(request).workspaceId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
