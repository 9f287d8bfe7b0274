// The dashboard in Chromium: signing in (the key in sessionStorage only), the overview's figures against
// GET /v1/usage, the hard cap, keyboard use, API keys shown once and revoked, and refused keys.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle, browsingSettings } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: sign-in, overview and keys"), () => {
  const dashboard = useDashboardSuite();

  /** The overview's labelled figures, as the page shows them. */
  // Expressions run in the page (as text: the tests are type-checked without the DOM's types).
  const figures = (): Promise<Record<string, string>> =>
    dashboard.page.evaluate(`Object.fromEntries([...document.querySelectorAll("dl.figures > div")]
      .map((pair) => [pair.children[0].textContent, pair.children[1].textContent]))`);
  const n = (value: number) => value.toLocaleString(browsingSettings.locale);
  const inBrowserZone = (timestamp: string) =>
    new Date(`${timestamp.replace(" ", "T")}Z`).toLocaleString(browsingSettings.locale, {
      timeZone: browsingSettings.timezoneId,
      dateStyle: "medium",
      timeStyle: "short",
    });

  it("signs in with a key kept in sessionStorage only, and the overview's figures equal GET /v1/usage", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const video = dashboard.server.video();
    const jobId = await dashboard.server.submitJob(key, [video.id, "nocaptions1"]);
    await dashboard.server.waitForSettled(key, jobId);
    await checkPageAt(dashboard.page, `${dashboard.server.url}/dashboard`, "sign-in");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByText("requests left this minute").waitFor(shows);
    const usage = (await dashboard.server.call("GET", "/v1/usage", { key })).body;

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
    const bar = dashboard.page.getByLabel("Used of the cycle's allowance");
    expect(Number(await bar.getAttribute("value"))).toBe(usage.credits.used_this_cycle);
    expect(Number(await bar.getAttribute("max"))).toBe(usage.credits.cycle_allowance);
    expect(await dashboard.page.locator(".chart rect.bar").count()).toBe(14);
    const today = usage.daily.at(-1);
    await expect(dashboard.page.locator(".chart title").last().textContent()).resolves.toBe(
      `${today.date}: ${n(today.credits)} credits`,
    );
    // Each day that spent credits has its figure written above its bar; today spent some.
    expect(today.credits).toBeGreaterThan(0);
    await expect(dashboard.page.locator(".chart text.value").last().textContent()).resolves.toBe(
      n(today.credits),
    );
    expect(await dashboard.page.locator(".chart text.value").count()).toBe(
      usage.daily.filter((day: { credits: number }) => day.credits > 0).length,
    );
    for (const [code, count] of Object.entries(usage.failures_by_code)) {
      await dashboard.page.getByRole("row", { name: `${code} ${n(count as number)}` }).waitFor(shows);
    }
    expect(Object.keys(usage.failures_by_code)).toContain("no_captions");

    // The key lives in this tab's sessionStorage, and nowhere else.
    expect(await dashboard.page.evaluate("Object.values(sessionStorage)")).toEqual([key]);
    expect(await dashboard.page.evaluate("localStorage.length")).toBe(0);
    expect(await dashboard.context.cookies()).toEqual([]);
    expect(dashboard.page.url()).not.toContain(key);
    await checkPage(dashboard.page, "overview");

    await dashboard.page.getByRole("button", { name: "Sign out" }).click();
    await dashboard.page.getByLabel("API key").waitFor(shows);
    expect(await dashboard.page.evaluate("sessionStorage.length")).toBe(0);
  });

  async function checkPageAt(target: Page, url: string, name: string) {
    await target.goto(url);
    await target.getByLabel("API key").waitFor(shows);
    await checkPage(target, name);
  }

  it("sets the hard cap and clears it, and GET /v1/usage follows", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await signIn(dashboard.page, dashboard.server.url, key);
    const field = dashboard.page.getByRole("spinbutton", { name: "Hard cap" });
    await field.fill("500");
    await dashboard.page.getByRole("button", { name: "Save" }).click();
    await dashboard.page.getByText("Saved.", { exact: true }).waitFor(shows);
    expect((await dashboard.server.call("GET", "/v1/usage", { key })).body.credits.hard_cap).toBe(500);
    await dashboard.page.getByText("Jobs stop using credits at 500 in a cycle.").waitFor(shows);

    await field.fill("");
    await dashboard.page.getByRole("button", { name: "Save" }).click();
    await dashboard.page.getByText("Saved: no hard cap.").waitFor(shows);
    expect((await dashboard.server.call("GET", "/v1/usage", { key })).body.credits.hard_cap).toBeNull();

    // The server's own words, and its request id, when it refuses the value.
    await field.fill("-3");
    await dashboard.page.getByRole("button", { name: "Save" }).click();
    const alert = dashboard.page.locator(".hard-cap .error");
    await alert.waitFor(shows);
    expect(await alert.textContent()).toMatch(/hard_cap.*Request id: \S+/s);
    expect(dashboard.console.refusedStatuses).toEqual([400]);
  });

  it("works from the keyboard alone, with a visible focus", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await dashboard.page.goto(`${dashboard.server.url}/dashboard`);
    await dashboard.page.keyboard.press("Tab");
    expect(await dashboard.page.evaluate("document.activeElement.id")).toBe("api-key");
    await dashboard.page.keyboard.type(key);
    await dashboard.page.keyboard.press("Enter");
    await dashboard.page.getByRole("heading", { name: "Overview", level: 1 }).waitFor(shows);
    const focused = (): Promise<{ text: string; outline: string }> =>
      dashboard.page.evaluate(`({
        text: document.activeElement.textContent.trim(),
        outline: getComputedStyle(document.activeElement).outlineStyle,
      })`);
    // Skip link, brand-less nav: Overview, Jobs.
    await dashboard.page.keyboard.press("Tab");
    expect((await focused()).text).toBe("Skip to content");
    await dashboard.page.keyboard.press("Tab");
    await dashboard.page.keyboard.press("Tab");
    const onJobs = await focused();
    expect(onJobs.text).toBe("Jobs");
    expect(onJobs.outline).not.toBe("none");
    await dashboard.page.keyboard.press("Enter");
    await dashboard.page.getByRole("heading", { name: "Jobs", level: 1 }).waitFor(shows);
    expect(dashboard.page.url()).toBe(`${dashboard.server.url}/dashboard/jobs`);
  });

  it("creates a key shown once, revokes it, and refuses it at sign-in", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await dashboard.context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: dashboard.server.url,
    });
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "API keys" }).click();
    await dashboard.page.getByLabel("Label").fill("ci runner");
    await dashboard.page.getByLabel("Note").fill("for the nightly build");
    await dashboard.page.getByLabel("Environment").selectOption("test");
    await dashboard.page.getByRole("button", { name: "Create key" }).click();
    const shown = dashboard.page.locator("[data-secret]");
    await shown.waitFor(shows);
    const newKey = (await shown.textContent())!.trim();
    expect(newKey).toMatch(/^vr_test_/);
    await dashboard.page.getByText("it will not be shown again").waitFor(shows);
    await dashboard.page.getByRole("button", { name: "Copy" }).click();
    await dashboard.page.getByText("Copied.").waitFor(shows);
    expect(await dashboard.page.evaluate("navigator.clipboard.readText()")).toBe(newKey);
    expect((await dashboard.server.call("GET", "/v1/usage", { key: newKey })).status).toBe(200);
    await checkPage(dashboard.page, "keys-created");
    await dashboard.page.getByRole("button", { name: "Done" }).click();
    await dashboard.page.getByRole("button", { name: "Create key" }).waitFor(shows);
    expect(await dashboard.page.content()).not.toContain(newKey);

    const row = dashboard.page.getByRole("row").filter({ hasText: "ci runner" });
    await row.getByRole("cell", { name: "test", exact: true }).waitFor(shows);
    await checkPage(dashboard.page, "keys");
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await dashboard.page.getByRole("dialog", { name: "Revoke this key?" }).waitFor(shows);
    await dashboard.page.getByRole("button", { name: "Revoke key" }).click();
    await row.getByRole("button", { name: /^Revoke/ }).waitFor({ state: "detached", ...shows });
    expect((await dashboard.server.call("GET", "/v1/usage", { key: newKey })).status).toBe(401);
    // The revoked key is listed apart from the live ones, with when it was revoked.
    const revokedKeys = dashboard.page.getByRole("region", { name: "Revoked API keys" });
    await revokedKeys.getByRole("row").filter({ hasText: "ci runner" }).waitFor(shows);
    expect(
      await dashboard.page.getByRole("region", { name: "Live API keys" }).getByText("ci runner").count(),
    ).toBe(0);
    await checkPage(dashboard.page, "keys-revoked");

    // A revoked key is refused at sign-in with the server's message and its request id.
    await dashboard.page.getByRole("button", { name: "Sign out" }).click();
    await dashboard.page.getByLabel("API key").fill(newKey);
    await dashboard.page.getByRole("button", { name: "Sign in" }).click();
    const refusal = dashboard.page.getByRole("alert");
    await refusal.getByText("The API key is not valid").waitFor(shows);
    expect(await refusal.textContent()).toMatch(/Request id: \S+/);
    expect(await dashboard.page.evaluate("sessionStorage.length")).toBe(0);
    expect(dashboard.console.refusedStatuses).toEqual([401]);
  });

  it("signs the user out when the key it is signed in with is revoked", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "API keys" }).click();
    await dashboard.page.getByRole("button", { name: /^Revoke/ }).click();
    await dashboard.page.getByRole("button", { name: "Revoke key" }).click();
    await dashboard.page.getByText("The server refused the API key").waitFor(shows);
    await dashboard.page.getByLabel("API key").waitFor(shows);
    expect(await dashboard.page.evaluate("sessionStorage.length")).toBe(0);
    expect(dashboard.console.refusedStatuses).toEqual([401]);
  });
});
