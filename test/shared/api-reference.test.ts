// `/docs`: the API reference page, served without a key, whose scripts, styles and document all load from the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** The local URLs a page loads: its scripts, stylesheets and icons. */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
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

    it("answers /docs with an HTML page, without a key", async () => {
      const page = await fetch(`${server.url}/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.headers.get("x-request-id")).toMatch(/^req_/);
      const html = await page.text();
      expect(html).toMatch(/<div id="swagger-ui">/);
    });

    it("loads every script and stylesheet of the page from the server itself", async () => {
      const html = await (await fetch(`${server.url}/docs`)).text();
      const assets = assetsOf(html);
      expect(assets.some((a) => a.endsWith(".js"))).toBe(true);
      expect(assets.some((a) => a.endsWith(".css"))).toBe(true);
      for (const asset of assets) {
        // Relative to the page: nothing comes from another host, so the page works offline.
        expect(asset, asset).not.toMatch(/^(https?:)?\/\//);
        const answer = await fetch(new URL(asset, `${server.url}/docs/`));
        expect(answer.status, asset).toBe(200);
        expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
        if (asset.endsWith(".js")) expect(answer.headers.get("content-type"), asset).toMatch(/javascript/);
        if (asset.endsWith(".css")) expect(answer.headers.get("content-type"), asset).toMatch(/^text\/css/);
      }
    });

    it("shows the served OpenAPI document", async () => {
      const shown = await (await fetch(`${server.url}/docs/json`)).json();
      const served = await server.call("GET", "/v1/openapi.json");
      expect(shown).toEqual(served.body);
    });
  });
}
