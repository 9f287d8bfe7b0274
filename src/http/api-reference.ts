// `/docs`: the API reference people read, Scalar over the served OpenAPI document, in the dashboard's
// colours, its script served from the package (no CDN, compressed when the browser accepts it) under a
// Content-Security-Policy of its own.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ApiReferenceConfiguration } from "@scalar/fastify-api-reference";
import type { FastifyInstance, FastifyReply } from "fastify";
import { apiReferenceStyle } from "./api-reference-style.js";
import { CompressedVariants, preferredCoding } from "./compressed-variants.js";
import { loadScalarScript } from "./scalar-script.js";

/** The dashboard's icon, shown in the browser's tab for the reference too. */
const iconFile = new URL("../../dashboard/public/icon.svg", import.meta.url);

/**
 * The reference's policy. Scripts: this server's only, none inline. Styles: Scalar puts its stylesheet
 * and theme into the page at run time, so inline styles are allowed here (never inline scripts).
 * Everything the page fetches (the OpenAPI document, "Test request") goes to this server only.
 */
export const apiReferenceContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** What Scalar is told: the document, the look, and nothing that talks to Scalar's own services. */
const settings: Partial<ApiReferenceConfiguration> = {
  url: "/v1/openapi.json",
  favicon: "/docs/icon.svg",
  theme: "none",
  customCss: apiReferenceStyle,
  // The dashboard's system fonts: Scalar's own would come from its font service.
  withDefaultFonts: false,
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
  // No telemetry, no hosted agent or MCP, no developer bar.
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  documentDownloadType: "json",
};

/** The page: Scalar's script, then ours that starts it with the settings. Nothing inline. */
const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>vidrows API reference</title>
    <link rel="icon" href="/docs/icon.svg" type="image/svg+xml" />
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js"></script>
    <script src="/docs/start.js"></script>
  </body>
</html>
`;

const start = `Scalar.createApiReference("#app", ${JSON.stringify(settings)});\n`;

function send(reply: FastifyReply, type: string, body: string | Buffer, etag?: string): FastifyReply {
  reply.header("content-security-policy", apiReferenceContentSecurityPolicy);
  reply.header("x-content-type-options", "nosniff");
  reply.header("referrer-policy", "no-referrer");
  // Browsers ask each time, and get the body again only when it changed (a new Scalar, new settings).
  reply.header("cache-control", "no-cache");
  if (etag !== undefined) {
    reply.header("etag", etag);
    if (reply.request.headers["if-none-match"] === etag) return reply.code(304).send();
  }
  return reply.type(type).send(body);
}

const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;

/**
 * Serves the reference at `/docs` (and `/docs/`), Scalar's script at `/docs/scalar.js`, the settings
 * that start it at `/docs/start.js` and the dashboard's icon at `/docs/icon.svg`. Every route here is
 * public, like the document itself, and hidden from it.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  // Any query string is the page's business (a shared link may carry one), as for the dashboard.
  const anyQuery = { type: "object", patternProperties: { "": {} } };
  const route = { config: { public: true }, schema: { hide: true, querystring: anyQuery } };
  const pageTag = etagOf(page);
  app.get("/docs", route, (_request, reply) => send(reply, "text/html; charset=utf-8", page, pageTag));
  app.get("/docs/", route, (_request, reply) => send(reply, "text/html; charset=utf-8", page, pageTag));
  const startTag = etagOf(start);
  app.get("/docs/start.js", route, (_request, reply) =>
    send(reply, "application/javascript; charset=utf-8", start, startTag),
  );
  // Loaded on the first request for it, not when the server starts: Scalar's package takes most of a
  // second to load, which no process that never shows /docs should pay. 4.3 MB as it is, so it goes
  // compressed (1.1 MB as brotli) to a browser that accepts it, each form made once; an answer of its own
  // rather than a compression plugin on every route, which the API's small JSON answers do not need.
  let script: Promise<{ variants: CompressedVariants; etag: string }> | undefined;
  app.get("/docs/scalar.js", route, async (request, reply) => {
    script ??= loadScalarScript().then((body) => ({
      variants: new CompressedVariants(Buffer.from(body)),
      etag: etagOf(body),
    }));
    const { variants, etag } = await script;
    const coding = preferredCoding(request.headers["accept-encoding"]);
    const type = "application/javascript; charset=utf-8";
    reply.header("vary", "accept-encoding");
    // Each encoding is a representation of its own, with its own tag (RFC 9110, 8.8.3).
    const tag = coding === undefined ? etag : `${etag.slice(0, -1)}-${coding}"`;
    if (request.headers["if-none-match"] === tag) return send(reply, type, "", tag); // 304
    if (coding !== undefined) reply.header("content-encoding", coding);
    return send(reply, type, await variants.body(coding), tag);
  });
  let icon: string | undefined;
  try {
    icon = readFileSync(iconFile, "utf8");
  } catch {
    icon = undefined; // A server installed without the dashboard's sources: the tab shows no icon.
  }
  const svg = icon ?? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"/>`;
  app.get("/docs/icon.svg", route, (_request, reply) => send(reply, "image/svg+xml", svg, etagOf(svg)));
}
