// `/docs`: the API reference page (Scalar), served without a key, under its own CSP, whose script and
// document load from the server itself; and the OpenAPI document's shape that the page shows: tags in
// reading order, Jobs first, and unions of plain values written as enums.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiReferenceContentSecurityPolicy } from "../../src/http/api-reference.js";
import { documentTags } from "../../src/http/openapi-document.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** The local URLs a page loads: its scripts, stylesheets and icons. */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
}

function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string);
}

/** Every schema object in the document, wherever it sits. */
function everyObject(node: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) for (const item of node) everyObject(item, found);
  else if (typeof node === "object" && node !== null) {
    found.push(node as Record<string, unknown>);
    for (const value of Object.values(node)) everyObject(value, found);
  }
  return found;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`The API reference on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect.name);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("answers /docs with the reference's page, titled for vidrows, without a key", async () => {
      const page = await fetch(`${server.url}/docs`);
      expect(page.status).toBe(200);
      expect(page.url).toBe(`${server.url}/docs`); // the page itself, not a redirect
      expect(await (await fetch(`${server.url}/docs/`)).text()).toBe(await page.clone().text());
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.headers.get("x-request-id")).toMatch(/^req_/);
      const html = await page.text();
      expect(html).toContain("<title>vidrows API reference</title>");
      expect(html).not.toMatch(/swagger/i);
      // A link that carries a query string (a campaign tag, a chat's preview) still opens the page.
      expect((await fetch(`${server.url}/docs?ref=chat`)).status).toBe(200);
    });

    it("allows only the server's own scripts, and has no inline script to allow", async () => {
      const page = await fetch(`${server.url}/docs`);
      const policy = page.headers.get("content-security-policy") ?? "";
      expect(policy).toBe(apiReferenceContentSecurityPolicy);
      const directives = Object.fromEntries(
        policy.split("; ").map((directive) => [directive.split(" ")[0], directive.split(" ").slice(1)]),
      );
      expect(directives["default-src"]).toEqual(["'none'"]);
      expect(directives["script-src"]).toEqual(["'self'"]);
      expect(directives["connect-src"]).toEqual(["'self'"]);
      expect(directives["frame-ancestors"]).toEqual(["'none'"]);
      expect(inlineScripts(await page.text())).toEqual([]);
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    });

    it("loads every script, stylesheet and icon of the page from the server itself", async () => {
      const html = await (await fetch(`${server.url}/docs`)).text();
      const assets = assetsOf(html);
      expect(assets.some((a) => a.endsWith(".js"))).toBe(true);
      for (const asset of assets) {
        // Relative to the page or to the server: nothing comes from another host, so the page works offline.
        expect(asset, asset).not.toMatch(/^(https?:)?\/\//);
        const answer = await fetch(new URL(asset, `${server.url}/docs/`));
        expect(answer.status, asset).toBe(200);
        expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
        if (asset.endsWith(".js")) expect(answer.headers.get("content-type"), asset).toMatch(/javascript/);
      }
      // The settings name no other host either: no CDN, no font service, no proxy.
      const start = await (await fetch(`${server.url}/docs/start.js`)).text();
      expect(start).toMatch(/^Scalar\.createApiReference\("#app", \{/);
      expect(start).not.toMatch(/https?:\/\//);
      const icon = await fetch(`${server.url}/docs/icon.svg`);
      expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    });

    it("sends Scalar's script (loaded on first request) again only when it changed, by its ETag", async () => {
      const first = await fetch(`${server.url}/docs/scalar.js`);
      const etag = first.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get("cache-control")).toBe("no-cache");
      // zod's setting first, so that the script never probes for eval (which the CSP refuses).
      expect(await first.text()).toMatch(/^globalThis\.__zod_globalConfig = \{ jitless: true \};\n/);
      const again = await fetch(`${server.url}/docs/scalar.js`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    });

    it("shows the served OpenAPI document", async () => {
      const start = await (await fetch(`${server.url}/docs/start.js`)).text();
      expect(start).toContain('"url":"/v1/openapi.json"');
    });

    it("lists the tags Jobs first, each used tag once, each with a description", async () => {
      const document = (await server.call("GET", "/v1/openapi.json")).body;
      expect(document.tags).toEqual(documentTags);
      expect(document.tags[0].name).toBe("Jobs");
      const used = new Set<string>();
      for (const item of Object.values(document.paths) as Record<string, { tags?: string[] }>[]) {
        for (const operation of Object.values(item)) for (const tag of operation.tags ?? []) used.add(tag);
      }
      expect(document.tags.map((tag: { name: string }) => tag.name).sort()).toEqual([...used].sort());
    });

    it("writes a choice of plain values as one enum, not as a union of unnamed one-value schemas", async () => {
      const document = (await server.call("GET", "/v1/openapi.json")).body;
      const unionsOfValues = everyObject(document).filter(
        (schema) =>
          Array.isArray(schema.anyOf) &&
          schema.anyOf.every((branch: any) => Array.isArray(branch.enum) && branch.enum.length === 1),
      );
      expect(unionsOfValues).toEqual([]);
      const status = document.paths["/v1"].get.parameters.find((p: any) => p.name === "status");
      expect(status.schema).toMatchObject({ type: "string", enum: ["running", "succeeded", "failed"] });
    });
  });
}
