// The dashboard's files over HTTP: public, under the CSP, index.html for the page's own routes, and the
// API's JSON answers left as they were.
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardBuildFolder, dashboardContentSecurityPolicy } from "../../src/app/dashboard-files.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

describe("dashboard files", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
    key = (await server.workspace()).key;
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string) => fetch(server.url + path);

  it("serves index.html at /dashboard and at every client-side route, without a key, under the CSP", async () => {
    for (const path of [
      "/dashboard",
      "/dashboard/",
      "/dashboard/jobs",
      "/dashboard/jobs/job_x",
      "/dashboard/keys",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.headers.get("content-security-policy")).toBe(dashboardContentSecurityPolicy);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toContain('<div id="app"></div>');
    }
  });

  it("allows only the page's own scripts and styles", () => {
    expect(dashboardContentSecurityPolicy).toContain("default-src 'none'");
    expect(dashboardContentSecurityPolicy).toContain("script-src 'self'");
    expect(dashboardContentSecurityPolicy).toContain("style-src 'self'");
    expect(dashboardContentSecurityPolicy).not.toContain("unsafe");
  });

  it("serves the built assets, cached for good, and the built page holds no inline script or style", async () => {
    const assets = readdirSync(`${dashboardBuildFolder}/assets`);
    expect(assets.some((name) => name.endsWith(".js"))).toBe(true);
    for (const name of assets) {
      const response = await get(`/dashboard/assets/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("cache-control")).toContain("immutable");
      expect(response.headers.get("content-security-policy")).toBe(dashboardContentSecurityPolicy);
    }
    const page = await (await get("/dashboard")).text();
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|style="/);
  });

  it("answers a missing asset with the API's JSON 404, not the page", async () => {
    const response = await get("/dashboard/assets/missing-0000.js");
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.code).toBe("not_found");
  });

  it("leaves unknown /v1 routes to their JSON 404 and keeps the dashboard out of the OpenAPI document", async () => {
    const unknown = await server.call("GET", "/v1/no/such/route", { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    const document = await server.call("GET", "/v1/openapi.json");
    expect(Object.keys(document.body.paths).filter((path) => path.startsWith("/dashboard"))).toEqual([]);
  });
});
