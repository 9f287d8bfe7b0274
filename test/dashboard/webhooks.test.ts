// The dashboard in Chromium: a webhook endpoint created (its secret shown once and good for verifying),
// a real delivery attempt seen and resent, pausing, re-enabling and deleting; the Free plan's refusal.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle, launchChromium, newBrowsing } from "../support/browser.js";
import { checkPage, shows, signIn, watchConsole } from "../support/dashboard-pages.js";
import { type DashboardServer, startDashboardServer } from "../support/dashboard-server.js";
import { startWebhookReceiver, verifiedEvent, type WebhookReceiver } from "../support/webhook-receiver.js";

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: webhooks"), () => {
  let server: DashboardServer;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let console_: ReturnType<typeof watchConsole>;
  beforeAll(async () => {
    [server, receiver, browser] = await Promise.all([
      startDashboardServer(),
      startWebhookReceiver("localhost"),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
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

  it("creates an endpoint (secret shown once), sees a delivery attempt, resends it, pauses, enables, deletes", async () => {
    const { key } = await server.workspace("pro");
    await signIn(page, server.url, key);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByText("No endpoints yet.").waitFor(shows);
    await checkPage(page, "webhooks-empty");
    const url = `${receiver.origin}/dashboard-hooks`;
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("batch.completed").uncheck();
    await page.getByRole("button", { name: "Create endpoint" }).click();
    const shown = page.locator("[data-secret]");
    await shown.waitFor(shows);
    const secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByText("it will not be shown again").waitFor(shows);
    await checkPage(page, "webhooks-created");
    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.content()).not.toContain(secret);
    const row = page.getByRole("row").filter({ hasText: url });
    await row.getByRole("cell", { name: "job.completed, job.failed" }).waitFor(shows);
    await checkPage(page, "webhooks");

    const jobId = await server.submitJob(key, [server.video().id]);
    const [delivered] = await receiver.waitForAt("/dashboard-hooks", 1);
    expect(verifiedEvent(secret, delivered!).data.job_id).toBe(jobId);

    await row.getByRole("link", { name: "Attempts" }).click();
    await page.getByRole("heading", { name: "Delivery attempts" }).waitFor(shows);
    const attempt = page.locator("tr[data-attempt]").first();
    await attempt.getByRole("cell", { name: "Delivered" }).waitFor(shows);
    await attempt.getByRole("cell", { name: "200", exact: true }).waitFor(shows);
    await attempt.getByRole("cell", { name: "job.completed", exact: true }).waitFor(shows);
    await checkPage(page, "webhook-attempts");
    await attempt.getByRole("button", { name: /^Resend/ }).click();
    await page.getByText(/Queued the event of delivery \S+ again\./).waitFor(shows);
    const [, again] = await receiver.waitForAt("/dashboard-hooks", 2);
    expect(again!.headers["webhook-id"]).toBe(delivered!.headers["webhook-id"]);
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.locator("tr[data-attempt]").nth(1).waitFor(shows);

    await page.getByRole("link", { name: "Webhooks" }).first().click();
    await row.getByRole("button", { name: "Pause" }).click();
    await row.getByRole("cell", { name: "Paused" }).waitFor(shows);
    const listed = async () => (await server.call("GET", "/v1/webhooks", { key })).body.data[0];
    expect((await listed()).disabled).toBe(true);
    await row.getByRole("button", { name: "Enable" }).click();
    await row.getByRole("cell", { name: "Active" }).waitFor(shows);
    expect((await listed()).disabled).toBe(false);
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText("No endpoints yet.").waitFor(shows);
    expect((await server.call("GET", "/v1/webhooks", { key })).body.data).toEqual([]);
  });

  it("tells a Free-plan workspace why it cannot create an endpoint, in the server's words", async () => {
    const { key } = await server.workspace("free");
    await signIn(page, server.url, key);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("URL").fill(`${receiver.origin}/free`);
    await page.getByRole("button", { name: "Create endpoint" }).click();
    await page.getByRole("heading", { name: "Webhooks are not part of your plan" }).waitFor(shows);
    const refused = await server.call("POST", "/v1/webhooks", {
      key,
      body: { url: `${receiver.origin}/free` },
    });
    expect(refused.body.error.code).toBe("plan_limit");
    await page.getByText(refused.body.error.message).waitFor(shows);
    expect(await page.getByRole("button", { name: "Create endpoint" }).count()).toBe(0);
    await checkPage(page, "webhooks-free-plan");
    expect(console_.refusedStatuses).toEqual([403]);
  });
});
