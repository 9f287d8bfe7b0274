// `/docs`: the API reference people read, Swagger UI over the served OpenAPI document, its assets served from the package.
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { openApiDocument } from "./openapi-route.js";

/**
 * Serves Swagger UI at `/docs`: the page, its scripts and styles from @fastify/swagger-ui's own copy (no
 * CDN, so it works offline), and at `/docs/json` the same document as `GET /v1/openapi.json`. Every
 * route here is public, like the document itself.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  // Inside this plugin only: the reference's routes need no key.
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, public: true };
  });
  let document: Record<string, unknown> | undefined;
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    uiConfig: { deepLinking: true, displayOperationId: true, defaultModelsExpandDepth: 1 },
    staticCSP: true,
    transformSpecification: () => (document ??= openApiDocument(app)),
    transformSpecificationClone: false,
  });
}
