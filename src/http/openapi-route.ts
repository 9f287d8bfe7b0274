// `GET /v1/openapi.json`: the OpenAPI 3.1 document, generated from the schemas that validate requests.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { errorAnswers } from "./common-schemas.js";

type Json = Record<string, unknown>;

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Corrects what the generator cannot know from the schemas alone: a body whose fields are all optional
 * may be left out (the server reads none as `{}`), and a query parameter with a default need not be sent.
 * Responses the routes did not describe get the route's summary instead of "Default Response". A HEAD
 * operation keeps the id its route gave it (the generator appends `-head`, for a HEAD it made itself
 * from a GET) and its answers carry no body.
 */
export function tidyOpenApiDocument(document: Json): Json {
  const copy = structuredClone(document);
  for (const item of Object.values((copy.paths ?? {}) as Record<string, Json>)) {
    for (const method of methods) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      if (method === "head") headWithoutBodies(operation);
      const body = operation.requestBody as Json | undefined;
      const bodySchema = (body?.content as Record<string, Json> | undefined)?.["application/json"]?.schema as
        Json | undefined;
      if (body && bodySchema && !(Array.isArray(bodySchema.required) && bodySchema.required.length > 0)) {
        body.required = false;
      }
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.in === "query" && (parameter.schema as Json | undefined)?.default !== undefined) {
          parameter.required = false;
        }
      }
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>)) {
        if (response.description === "Default Response" && typeof operation.summary === "string") {
          response.description = operation.summary;
        }
      }
    }
  }
  return copy;
}

function headWithoutBodies(operation: Json): void {
  if (typeof operation.operationId === "string")
    operation.operationId = operation.operationId.replace(/-head$/, "");
  for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>)) {
    delete response.content;
  }
}

/** The document `GET /v1/openapi.json` serves, for a server whose routes are all registered and ready. */
export function openApiDocument(app: FastifyInstance): Json {
  return tidyOpenApiDocument(app.swagger() as unknown as Json);
}

export const openApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  let document: Json | undefined;
  app.get(
    "/v1/openapi.json",
    {
      schema: {
        operationId: "getOpenApiDocument",
        summary: "Read this OpenAPI document",
        description:
          "The whole API as OpenAPI 3.1, generated from the schemas that validate requests. No key needed.",
        tags: ["Reference"],
        security: [],
        response: {
          200: Type.Object({}, { additionalProperties: true, description: "The OpenAPI 3.1 document." }),
          ...errorAnswers({ public: true }),
        },
      },
      config: { public: true },
    },
    async (_request, reply) => {
      // Built on first request, once every route is registered; the routes never change afterwards.
      document ??= openApiDocument(app);
      return reply.type("application/json; charset=utf-8").send(document);
    },
  );
};
