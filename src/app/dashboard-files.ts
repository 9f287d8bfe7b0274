// The dashboard's built files at /dashboard: served without a key (its API calls carry the user's key),
// under a Content-Security-Policy that lets the page run only its own scripts and styles, with
// index.html for every client-side route.
import { existsSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { ApiError } from "../http/api-errors.js";

/** Where `npm run build` writes the dashboard (the same place from `src/app/` and from `dist/app/`). */
export const dashboardBuildFolder = fileURLToPath(new URL("../../dashboard/dist/", import.meta.url));

/** The page may load scripts, styles, images and API answers from this origin only, and nothing inline. */
export const dashboardContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export interface DashboardOptions {
  /** The folder holding `index.html` and `assets/`; default the build's. */
  readonly folder?: string;
}

function filesUnder(folder: string): Set<string> {
  const entries = readdirSync(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return new Set(files.map((file) => relative(folder, file).split(sep).join("/")));
}

/** Registers `GET /dashboard` and `GET /dashboard/*`; hidden from the API's OpenAPI document. */
export async function dashboardFiles(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const folder = options.folder ?? dashboardBuildFolder;
  // Any query string is the page's business (a link may carry one); the API's routes refuse unknown ones.
  const anyQuery = { type: "object", patternProperties: { "": {} } };
  const route = { config: { public: true }, schema: { hide: true, querystring: anyQuery } };
  if (!existsSync(join(folder, "index.html"))) {
    const notBuilt = () => {
      throw new ApiError(
        "unavailable",
        `The dashboard has not been built (no ${folder}); run npm run build.`,
      );
    };
    app.get("/dashboard", route, notBuilt);
    app.get("/dashboard/*", route, notBuilt);
    return;
  }
  // The set of files is fixed when the server starts: a path outside it can never name a file.
  const files = filesUnder(folder);
  await app.register(fastifyStatic, { root: folder, serve: false });

  const send = (reply: FastifyReply, file: string) => {
    reply.header("content-security-policy", dashboardContentSecurityPolicy);
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "no-referrer");
    // Built assets carry a hash of their content in their names; index.html names the current ones.
    if (file.startsWith("assets/")) return reply.sendFile(file, { maxAge: "365d", immutable: true });
    reply.header("cache-control", "no-cache");
    return reply.sendFile(file, { cacheControl: false });
  };
  app.get("/dashboard", route, (_request, reply) => send(reply, "index.html"));
  app.get<{ Params: { "*": string } }>("/dashboard/*", route, (request, reply) => {
    const path = request.params["*"];
    if (files.has(path)) return send(reply, path);
    if (path.startsWith("assets/")) {
      throw new ApiError(
        "not_found",
        `No dashboard file ${path.slice(0, 200)}; the page may be out of date.`,
      );
    }
    // Any other path is one of the page's own routes (/dashboard/jobs/job_...), which the page draws.
    return send(reply, "index.html");
  });
}
