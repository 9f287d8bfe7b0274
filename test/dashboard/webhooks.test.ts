// The dashboard in Chromium: a webhook endpoint created (its secret shown once and good for verifying),
// a real delivery attempt seen and resent, pausing, re-enabling and deleting; the Free plan's refusal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { startWebhookReceiver, verifiedEvent, type WebhookReceiver } from "../support/webhook-receiver.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: webhooks"), () => {
  const dashboard = useDashboardSuite();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver("localhost");
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("creates an endpoint (secret shown once), sees a delivery attempt, resends it, pauses, enables, deletes", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "Webhooks" }).click();
    await dashboard.page.getByText("No endpoints yet.").waitFor(shows);
    await checkPage(dashboard.page, "webhooks-empty");
    const url = `${receiver.origin}/dashboard-hooks`;
    await dashboard.page.getByLabel("URL").fill(url);
    await dashboard.page.getByLabel("batch.completed").uncheck();
    await dashboard.page.getByRole("button", { name: "Create endpoint" }).click();
    const shown = dashboard.page.locator("[data-secret]");
    await shown.waitFor(shows);
    const secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await dashboard.page.getByText("it will not be shown again").waitFor(shows);
    await checkPage(dashboard.page, "webhooks-created");
    await dashboard.page.getByRole("button", { name: "Done" }).click();
    expect(await dashboard.page.content()).not.toContain(secret);
    const row = dashboard.page.getByRole("row").filter({ hasText: url });
    await row.getByRole("cell", { name: "job.completed, job.failed" }).waitFor(shows);
    await checkPage(dashboard.page, "webhooks");

    const jobId = await dashboard.server.submitJob(key, [dashboard.server.video().id]);
    const [delivered] = await receiver.waitForAt("/dashboard-hooks", 1);
    expect(verifiedEvent(secret, delivered!).data.job_id).toBe(jobId);

    await row.getByRole("link", { name: "Attempts" }).click();
    await dashboard.page.getByRole("heading", { name: "Delivery attempts" }).waitFor(shows);
    const attempt = dashboard.page.locator("tr[data-attempt]").first();
    await attempt.getByRole("cell", { name: "Delivered" }).waitFor(shows);
    await attempt.getByRole("cell", { name: "200", exact: true }).waitFor(shows);
    await attempt.getByRole("cell", { name: "job.completed", exact: true }).waitFor(shows);
    await checkPage(dashboard.page, "webhook-attempts");
    await attempt.getByRole("button", { name: /^Resend/ }).click();
    await dashboard.page.getByText(/Queued the event of delivery \S+ again\./).waitFor(shows);
    const [, again] = await receiver.waitForAt("/dashboard-hooks", 2);
    expect(again!.headers["webhook-id"]).toBe(delivered!.headers["webhook-id"]);
    await dashboard.page.getByRole("button", { name: "Refresh" }).click();
    await dashboard.page.locator("tr[data-attempt]").nth(1).waitFor(shows);

    await dashboard.page.getByRole("link", { name: "Webhooks" }).first().click();
    await row.getByRole("button", { name: "Pause" }).click();
    await row.getByRole("cell", { name: "Paused" }).waitFor(shows);
    const listed = async () => (await dashboard.server.call("GET", "/v1/webhooks", { key })).body.data[0];
    expect((await listed()).disabled).toBe(true);
    await row.getByRole("button", { name: "Enable" }).click();
    await row.getByRole("cell", { name: "Active" }).waitFor(shows);
    expect((await listed()).disabled).toBe(false);
    await row.getByRole("button", { name: "Delete" }).click();
    await dashboard.page.getByRole("button", { name: "Delete endpoint" }).click();
    await dashboard.page.getByText("No endpoints yet.").waitFor(shows);
    expect((await dashboard.server.call("GET", "/v1/webhooks", { key })).body.data).toEqual([]);
  });

  it("tells a Free-plan workspace why it cannot create an endpoint, in the server's words", async () => {
    const { key } = await dashboard.server.workspace("free");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "Webhooks" }).click();
    await dashboard.page.getByLabel("URL").fill(`${receiver.origin}/free`);
    await dashboard.page.getByRole("button", { name: "Create endpoint" }).click();
    await dashboard.page.getByRole("heading", { name: "Webhooks are not part of your plan" }).waitFor(shows);
    const refused = await dashboard.server.call("POST", "/v1/webhooks", {
      key,
      body: { url: `${receiver.origin}/free` },
    });
    expect(refused.body.error.code).toBe("plan_limit");
    await dashboard.page.getByText(refused.body.error.message).waitFor(shows);
    expect(await dashboard.page.getByRole("button", { name: "Create endpoint" }).count()).toBe(0);
    await checkPage(dashboard.page, "webhooks-free-plan");
    expect(dashboard.console.refusedStatuses).toEqual([403]);
  });
});
