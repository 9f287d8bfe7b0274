// Answers for paths no route serves: 405 with `Allow` where the path exists under other methods, else 404.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { ApiError } from "./api-errors.js";
import { sendError } from "./error-handler.js";

interface KnownRoute {
  readonly methods: readonly string[];
  readonly pattern: RegExp;
}

function patternFor(url: string): RegExp {
  const source = url
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}

/** Remembers every route as it is added, so that a miss can tell "wrong method" from "no such path". */
export function trackRoutes(
  app: FastifyInstance,
): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const routes: KnownRoute[] = [];
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    routes.push({ methods, pattern: patternFor(route.url) });
  });

  return (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    // Messages quote the path; a hostile one may be kilobytes long.
    const shown = path.length > 200 ? `${path.slice(0, 200)}...` : path;
    const allowed = new Set<string>();
    for (const route of routes) if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m);
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(", ");
      reply.header("allow", allow);
      return sendError(
        new ApiError("method_not_allowed", `${request.method} is not supported on ${shown}; use ${allow}.`),
        request,
        reply,
      );
    }
    return sendError(
      new ApiError(
        "not_found",
        `No endpoint ${request.method} ${shown}; see GET /v1/openapi.json for the API.`,
      ),
      request,
      reply,
    );
  };
}
