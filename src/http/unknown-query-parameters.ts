// Unknown query parameters are refused on every route, also on routes that declare no query string.
import type { FastifyInstance, RouteOptions } from "fastify";

/** The query string of a route that takes no parameters: an empty object, and nothing else. */
const noParameters = { type: "object", properties: {}, additionalProperties: false } as const;

/**
 * Without a querystring schema Fastify lets any parameter through, so `GET /v1/keys?limt=5` would
 * answer as if it were understood. Every route that declares none gets the empty one, and a declared
 * one is closed (`additionalProperties: false`), so that a typo is a 400 naming the parameter.
 */
export function refuseUnknownQueryParameters(app: FastifyInstance): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const declared = schema.querystring as Record<string, unknown> | undefined;
    const querystring =
      declared === undefined
        ? noParameters
        : declared.additionalProperties === false
          ? declared
          : { ...declared, additionalProperties: false };
    route.schema = { ...schema, querystring };
  });
}
