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
  unionsOfValuesAsEnums(copy);
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

/** A schema that allows one value and says nothing else: `{type: "string", enum: ["auto"]}`. */
function isSingleValue(schema: unknown): schema is { type: string; enum: [unknown] } {
  if (typeof schema !== "object" || schema === null) return false;
  const { type, enum: values, ...rest } = schema as Json;
  return (
    typeof type === "string" && Array.isArray(values) && values.length === 1 && Object.keys(rest).length === 0
  );
}

/**
 * A union of single values (how a union of literals is written in the validation schemas) becomes one
 * enum of those values, the same set: readers and generators then show `"auto" | "never" | "always"`
 * as the enum it is, not as a union of three unnamed choices.
 */
export function unionsOfValuesAsEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) unionsOfValuesAsEnums(item);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const schema = node as Json;
  const branches = schema.anyOf;
  if (Array.isArray(branches) && branches.length > 1 && branches.every(isSingleValue)) {
    const types = new Set(branches.map((branch) => branch.type));
    if (types.size === 1) {
      delete schema.anyOf;
      schema.type = branches[0]!.type;
      schema.enum = branches.map((branch) => branch.enum[0]);
    }
  }
  for (const value of Object.values(schema)) unionsOfValuesAsEnums(value);
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
