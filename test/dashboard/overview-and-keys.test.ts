// The dashboard in Chromium: signing in (the key in sessionStorage only), the overview's figures against
// GET /v1/usage, the hard cap, keyboard use, API keys shown once and revoked, and refused keys.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  browserSkipReason,
  browserTitle,
  browsingSettings,
  launchChromium,
  newBrowsing,
} from "../support/browser.js";
import { checkPage, shows, signIn, watchConsole } from "../support/dashboard-pages.js";
import { type DashboardServer, startDashboardServer } from "../support/dashboard-server.js";

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: sign-in, overview and keys"), () => {
  let server: DashboardServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let console_: ReturnType<typeof watchConsole>;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startDashboardServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    context = await newBrowsing(browser);
    page = await context.newPage();
    console_ = watchConsole(page);
  });
  afterEach(async () => {
    expect(console_.errors, "console errors").toEqual([]);
    await context.close();
  });

  /** The overview's labelled figures, as the page shows them. */
  // Expressions run in the page (as text: the tests are type-checked without the DOM's types).
  const figures = (): Promise<Record<string, string>> =>
    page.evaluate(`Object.fromEntries([...document.querySelectorAll("dl.figures > div")]
      .map((pair) => [pair.children[0].textContent, pair.children[1].textContent]))`);
  const n = (value: number) => value.toLocaleString(browsingSettings.locale);
  const inBrowserZone = (timestamp: string) =>
    new Date(`${timestamp.replace(" ", "T")}Z`).toLocaleString(browsingSettings.locale, {
      timeZone: browsingSettings.timezoneId,
      dateStyle: "medium",
      timeStyle: "short",
    });

  it("signs in with a key kept in sessionStorage only, and the overview's figures equal GET /v1/usage", async () => {
    const { key } = await server.workspace("pro");
    const video = server.video();
    const jobId = await server.submitJob(key, [video.id, "nocaptions1"]);
    await server.waitForSettled(key, jobId);
    await checkPageAt(page, `${server.url}/dashboard`, "sign-in");
    await signIn(page, server.url, key);
    await page.getByText("requests left this minute").waitFor(shows);
    const usage = (await server.call("GET", "/v1/usage", { key })).body;

    expect(await figures()).toMatchObject({
      Plan: usage.plan.name,
      "Requests per minute": n(usage.plan.requests_per_minute),
      Balance: n(usage.credits.balance),
      "Used this cycle": n(usage.credits.used_this_cycle),
      "Cycle allowance": n(usage.credits.cycle_allowance),
      "Cycle started": inBrowserZone(usage.cycle.started_at),
      "Cycle ends": inBrowserZone(usage.cycle.ends_at),
      Queued: n(usage.jobs.queued),
      Processing: n(usage.jobs.processing),
      Done: n(usage.jobs.done),
      Failed: n(usage.jobs.failed),
      Total: n(usage.jobs.total),
      "Videos processed": n(usage.videos_processed),
    });
    expect(usage.credits.used_this_cycle).toBeGreaterThan(0);
    const bar = page.getByLabel("Used of the cycle's allowance");
    expect(Number(await bar.getAttribute("value"))).toBe(usage.credits.used_this_cycle);
    expect(Number(await bar.getAttribute("max"))).toBe(usage.credits.cycle_allowance);
    expect(await page.locator(".chart rect.bar").count()).toBe(14);
    const today = usage.daily.at(-1);
    await expect(page.locator(".chart title").last().textContent()).resolves.toBe(
      `${today.date}: ${n(today.credits)} credits`,
    );
    // Each day that spent credits has its figure written above its bar; today spent some.
    expect(today.credits).toBeGreaterThan(0);
    await expect(page.locator(".chart text.value").last().textContent()).resolves.toBe(n(today.credits));
    expect(await page.locator(".chart text.value").count()).toBe(
      usage.daily.filter((day: { credits: number }) => day.credits > 0).length,
    );
    for (const [code, count] of Object.entries(usage.failures_by_code)) {
      await page.getByRole("row", { name: `${code} ${n(count as number)}` }).waitFor(shows);
    }
    expect(Object.keys(usage.failures_by_code)).toContain("no_captions");

    // The key lives in this tab's sessionStorage, and nowhere else.
    expect(await page.evaluate("Object.values(sessionStorage)")).toEqual([key]);
    expect(await page.evaluate("localStorage.length")).toBe(0);
    expect(await context.cookies()).toEqual([]);
    expect(page.url()).not.toContain(key);
    await checkPage(page, "overview");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor(shows);
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
  });

  async function checkPageAt(target: Page, url: string, name: string) {
    await target.goto(url);
    await target.getByLabel("API key").waitFor(shows);
    await checkPage(target, name);
  }

  it("sets the hard cap and clears it, and GET /v1/usage follows", async () => {
    const { key } = await server.workspace("pro");
    await signIn(page, server.url, key);
    const field = page.getByRole("spinbutton", { name: "Hard cap" });
    await field.fill("500");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.", { exact: true }).waitFor(shows);
    expect((await server.call("GET", "/v1/usage", { key })).body.credits.hard_cap).toBe(500);
    await page.getByText("Jobs stop using credits at 500 in a cycle.").waitFor(shows);

    await field.fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved: no hard cap.").waitFor(shows);
    expect((await server.call("GET", "/v1/usage", { key })).body.credits.hard_cap).toBeNull();

    // The server's own words, and its request id, when it refuses the value.
    await field.fill("-3");
    await page.getByRole("button", { name: "Save" }).click();
    const alert = page.locator(".hard-cap .error");
    await alert.waitFor(shows);
    expect(await alert.textContent()).toMatch(/hard_cap.*Request id: \S+/s);
    expect(console_.refusedStatuses).toEqual([400]);
  });

  it("works from the keyboard alone, with a visible focus", async () => {
    const { key } = await server.workspace("pro");
    await page.goto(`${server.url}/dashboard`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("api-key");
    await page.keyboard.type(key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor(shows);
    const focused = (): Promise<{ text: string; outline: string }> =>
      page.evaluate(`({
        text: document.activeElement.textContent.trim(),
        outline: getComputedStyle(document.activeElement).outlineStyle,
      })`);
    // Skip link, brand-less nav: Overview, Jobs.
    await page.keyboard.press("Tab");
    expect((await focused()).text).toBe("Skip to content");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const onJobs = await focused();
    expect(onJobs.text).toBe("Jobs");
    expect(onJobs.outline).not.toBe("none");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Jobs", level: 1 }).waitFor(shows);
    expect(page.url()).toBe(`${server.url}/dashboard/jobs`);
  });

  it("creates a key shown once, revokes it, and refuses it at sign-in", async () => {
    const { key } = await server.workspace("pro");
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await signIn(page, server.url, key);
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Label").fill("ci runner");
    await page.getByLabel("Note").fill("for the nightly build");
    await page.getByLabel("Environment").selectOption("test");
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.locator("[data-secret]");
    await shown.waitFor(shows);
    const newKey = (await shown.textContent())!.trim();
    expect(newKey).toMatch(/^vr_test_/);
    await page.getByText("it will not be shown again").waitFor(shows);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied.").waitFor(shows);
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(newKey);
    expect((await server.call("GET", "/v1/usage", { key: newKey })).status).toBe(200);
    await checkPage(page, "keys-created");
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Create key" }).waitFor(shows);
    expect(await page.content()).not.toContain(newKey);

    const row = page.getByRole("row").filter({ hasText: "ci runner" });
    await row.getByRole("cell", { name: "test", exact: true }).waitFor(shows);
    await checkPage(page, "keys");
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await page.getByRole("dialog", { name: "Revoke this key?" }).waitFor(shows);
    await page.getByRole("button", { name: "Revoke key" }).click();
    await row.getByRole("button", { name: /^Revoke/ }).waitFor({ state: "detached", ...shows });
    expect((await server.call("GET", "/v1/usage", { key: newKey })).status).toBe(401);
    // The revoked key is listed apart from the live ones, with when it was revoked.
    const revokedKeys = page.getByRole("region", { name: "Revoked API keys" });
    await revokedKeys.getByRole("row").filter({ hasText: "ci runner" }).waitFor(shows);
    expect(await page.getByRole("region", { name: "Live API keys" }).getByText("ci runner").count()).toBe(0);
    await checkPage(page, "keys-revoked");

    // A revoked key is refused at sign-in with the server's message and its request id.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").fill(newKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    const refusal = page.getByRole("alert");
    await refusal.getByText("The API key is not valid").waitFor(shows);
    expect(await refusal.textContent()).toMatch(/Request id: \S+/);
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
    expect(console_.refusedStatuses).toEqual([401]);
  });

  it("signs the user out when the key it is signed in with is revoked", async () => {
    const { key } = await server.workspace("pro");
    await signIn(page, server.url, key);
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: /^Revoke/ }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("The server refused the API key").waitFor(shows);
    await page.getByLabel("API key").waitFor(shows);
    expect(await page.evaluate("sessionStorage.length")).toBe(0);
    expect(console_.refusedStatuses).toEqual([401]);
  });
});
