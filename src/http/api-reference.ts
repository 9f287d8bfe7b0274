// `/docs`: the API reference people read, Scalar over the served OpenAPI document, in the dashboard's
// colours, its script served from the package (no CDN) under a Content-Security-Policy of its own.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import scalarApiReference from "@scalar/fastify-api-reference";
import type { FastifyInstance, FastifyReply } from "fastify";
import { apiReferenceStyle } from "./api-reference-style.js";

/** zod's global settings, which it reads from `globalThis` when it loads: validate without `new Function`. */
const noCompiledValidators = "globalThis.__zod_globalConfig = { jitless: true };";

/** The dashboard's icon, shown in the browser's tab for the reference too. */
const iconFile = new URL("../../dashboard/public/icon.svg", import.meta.url);

/**
 * The reference's policy. Scripts: this server's, and the one inline script the page carries (Scalar's
 * settings), allowed by its hash. Styles: Scalar puts its stylesheet and its theme into the page at run
 * time, without a nonce for the theme, so inline styles are allowed here (never inline scripts).
 * Everything the page fetches (the OpenAPI document, "Test request") goes to this server only.
 */
function contentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    ["script-src 'self'", ...inlineScriptHashes.map((hash) => `'sha256-${hash}'`)].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The SHA-256 (base64) of each inline `<script>` of a page, as a CSP hash source names it. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) =>
    createHash("sha256")
      .update(match[1] as string)
      .digest("base64"),
  );
}

function securityHeaders(reply: FastifyReply, html: string | undefined): void {
  reply.header("x-content-type-options", "nosniff");
  reply.header("referrer-policy", "no-referrer");
  if (html !== undefined)
    reply.header("content-security-policy", contentSecurityPolicy(inlineScriptHashes(html)));
}

/**
 * Serves Scalar's API reference at `/docs` (its script at `/docs/js/scalar.js`, from
 * @scalar/fastify-api-reference's own copy), reading the document from `GET /v1/openapi.json`, and the
 * dashboard's icon at `/docs/icon.svg`. Every route here is public, like the document itself.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  // Inside this plugin only: the reference's routes need no key.
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, public: true };
  });
  app.addHook("onSend", async (_request, reply, payload) => {
    const type = String(reply.getHeader("content-type") ?? "");
    securityHeaders(reply, type.startsWith("text/html") && typeof payload === "string" ? payload : undefined);
    return payload;
  });
  let icon: string | undefined;
  try {
    icon = readFileSync(iconFile, "utf8");
  } catch {
    icon = undefined; // A server installed without the dashboard's sources: the tab shows no icon.
  }
  if (icon !== undefined) {
    const svg = icon;
    app.get("/docs/icon.svg", { schema: { hide: true } }, (_request, reply) =>
      reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(svg),
    );
  }
  // Scalar's script, led by one line: its schema library (zod) otherwise probes whether it may compile
  // code with `Function("")`, which this page's policy refuses and the browser reports as a violation.
  // Told to run without compiling, it never asks. Read once through the plugin's own route.
  // About 4 MB: sent again only when it changed (a new Scalar), by its ETag; browsers ask each time.
  let script: Promise<{ body: string; etag: string }> | undefined;
  app.get("/docs/scalar.js", { schema: { hide: true } }, async (request, reply) => {
    script ??= app.inject({ method: "GET", url: "/docs/js/scalar.js" }).then((answer) => {
      const body = `${noCompiledValidators}\n${answer.body}`;
      return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    });
    const { body, etag } = await script;
    reply.header("etag", etag).header("cache-control", "no-cache");
    if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    return reply.type("application/javascript; charset=utf-8").send(body);
  });
  await app.register(scalarApiReference, {
    routePrefix: "/docs",
    logLevel: "warn",
    configuration: {
      url: "/v1/openapi.json",
      cdn: "/docs/scalar.js",
      pageTitle: "vidrows API reference",
      ...(icon === undefined ? {} : { favicon: "/docs/icon.svg" }),
      theme: "none",
      customCss: apiReferenceStyle,
      // The dashboard's system fonts: Scalar's own would come from its font CDN.
      withDefaultFonts: false,
      forceDarkModeState: "light",
      hideDarkModeToggle: true,
      // Nothing that talks to Scalar's services: no telemetry, no hosted agent or MCP, no developer bar.
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      documentDownloadType: "json",
    },
  });
}
