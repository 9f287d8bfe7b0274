// `GET /v1/openapi.json`: the OpenAPI 3.1 document, generated from the schemas that validate requests.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

export const openApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get("/v1/openapi.json", { schema: { hide: true }, config: { public: true } }, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(app.swagger()),
  );
};
