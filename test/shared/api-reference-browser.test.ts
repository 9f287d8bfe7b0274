// /docs in Chromium at 1280 px: Scalar's reference renders from the served document with Jobs as the first
// section and `POST /v1` in it, the unions `Job` and `VideoResult` shown as their named choices (never
// `any`), the dashboard's accent colour, and no console error, CSP violation or request to another host.
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { documentTags } from "../../src/http/openapi-document.js";
import { browserSkipReason, browserTitle, launchChromium, newBrowsing } from "../support/browser.js";
import { shows, watchConsole } from "../support/dashboard-pages.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const screenshots = new URL("../../test-output/docs/", import.meta.url);
mkdirSync(screenshots, { recursive: true });

describe.skipIf(browserSkipReason !== null)(browserTitle("/docs in a browser"), () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let console_: ReturnType<typeof watchConsole>;
  let elsewhere: string[];
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer("sqlite"), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    context = await newBrowsing(browser, 1280);
    page = await context.newPage();
    console_ = watchConsole(page);
    elsewhere = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(server.url) && !request.url().startsWith("data:"))
        elsewhere.push(request.url());
    });
    // Collected by the browser itself (an init script runs outside the page's CSP), beside the console.
    await page.addInitScript(`
      window.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (event) =>
        window.cspViolations.push(event.violatedDirective + ": " + event.blockedURI));
    `);
  });
  afterEach(async () => {
    expect(await page.evaluate("window.cspViolations"), "CSP violations").toEqual([]);
    expect(console_.errors, "console errors").toEqual([]);
    expect(elsewhere, "requests to other hosts").toEqual([]);
    await context.close();
  });

  it("shows Jobs as the first section, with POST /v1, in the dashboard's colours", async () => {
    await page.goto(`${server.url}/docs`);
    const submit = page.locator('section[id$="/tag/jobs/POST/v1"]');
    await submit.waitFor(shows);
    expect(await page.title()).toBe("vidrows API reference");

    // The sections in the page's order: Jobs is the first tag, and the sidebar lists tags as the document does.
    const tagSections = (await page.evaluate(
      `[...document.querySelectorAll("main section[id]")].map((s) => s.id).filter((id) => /\\/tag\\/[^/]+$/.test(id))`,
    )) as string[];
    expect(tagSections[0]).toMatch(/\/tag\/jobs$/);
    const sidebar = page.getByRole("complementary", { name: "Sidebar for vidrows" });
    const sidebarLines = (await sidebar.innerText()).split("\n").map((line) => line.trim());
    const names = documentTags.map((tag) => tag.name);
    expect(sidebarLines.filter((line) => names.includes(line))).toEqual(names);

    // The first operation of the Jobs section is POST /v1, and the section's list of operations says so.
    await expect.poll(() => submit.isVisible()).toBe(true);
    expect(await submit.getByRole("heading", { level: 3 }).first().innerText()).toBe("Submit a job");
    const jobs = page.locator('section[id$="/tag/jobs"]');
    expect((await jobs.innerText()).replace(/\s+/g, " ")).toContain("POST /v1 GET /v1");

    const accent = await page.evaluate(
      `getComputedStyle(document.querySelector(".scalar-app")).getPropertyValue("--scalar-color-accent").trim()`,
    );
    expect(accent).toBe("#1d4ed8");
    await page.screenshot({ path: new URL("docs-1280.png", screenshots).pathname });
  });

  it("shows the unions Job and VideoResult as their named choices, with no `any`", async () => {
    await page.goto(`${server.url}/docs`);
    const sidebar = page.getByRole("complementary", { name: "Sidebar for vidrows" });
    await sidebar.getByText("Models", { exact: true }).click(shows);
    for (const [model, choice] of [
      ["Job", "RunningJob"],
      ["VideoResult", "DoneVideo"],
    ] as const) {
      await sidebar.getByText(model, { exact: true }).click(shows);
      const shown = page.locator(`[id$="/models/${model}-content"]`).locator("..");
      await shown.getByText("Any of").first().waitFor(shows);
      const text = await shown.innerText();
      expect(text, model).toContain(choice);
      // "Any of" names the union; a lone `any` would be a schema the reader cannot read.
      expect(text.replace(/Any of/g, ""), model).not.toMatch(/\bany\b/i);
      await shown.screenshot({ path: new URL(`docs-model-${model}.png`, screenshots).pathname });
    }
  });
});
