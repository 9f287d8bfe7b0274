// The dashboard's form errors in Chromium: a malformed key at sign-in is told what a key looks like (and
// nothing is sent), and an error beside a field goes once the field is fixed, before any new submit.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";
import { newVideoId } from "../support/jobs-api.js";

/** The API requests the page sends from now on, by path. */
function apiRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith("/v1")) paths.push(`${request.method()} ${path}`);
  });
  return paths;
}

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: form errors"), () => {
  const dashboard = useDashboardSuite();
  const alerts = () => dashboard.page.getByRole("alert");

  it("tells a malformed key at sign-in what a key looks like, sends nothing, and clears once the key is right", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const sent = apiRequests(dashboard.page);
    await dashboard.page.goto(`${dashboard.server.url}/dashboard`);
    const field = dashboard.page.getByLabel("API key");
    const signInButton = dashboard.page.getByRole("button", { name: "Sign in" });

    const malformed: [string, RegExp][] = [
      // A space inside, as a paste across a line break leaves: the API would answer "No API key; send it as
      // `Authorization: Bearer <key>`", advice about headers a dashboard user cannot act on.
      [`${key.slice(0, 20)} ${key.slice(20)}`, /has a space or line break inside/],
      [key.slice(0, -1), new RegExp(`has 31 characters after ${key.slice(0, 8)}, not 32`)],
      [`sk_live_${key.slice(8)}`, /^This is not an API key/],
      [`${key.slice(0, -1)}!`, /character other than a letter or digit/],
    ];
    for (const [typed, message] of malformed) {
      await field.fill(typed);
      await signInButton.click();
      const text = await alerts().innerText();
      expect(text).toMatch(message);
      expect(text).toContain("vr_live_ or vr_test_ followed by 32 letters and digits");
      expect(text).not.toMatch(/Authorization|x-api-key|header/i);
      expect(await field.getAttribute("aria-invalid")).toBe("true");
    }
    await checkPage(dashboard.page, "sign-in-malformed-key");
    expect(sent).toEqual([]);

    // Fixed in the field, the message goes before the form is sent again.
    await field.fill(key);
    expect(await alerts().count()).toBe(0);
    expect(await field.getAttribute("aria-invalid")).toBe("false");
    expect(sent).toEqual([]);
    await signInButton.click();
    await dashboard.page.getByRole("heading", { name: "Overview", level: 1 }).waitFor(shows);
    expect(dashboard.console.refusedStatuses).toEqual([]);
  });

  it("clears the new-job form's errors as the field they name is fixed, not only on submit", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/new`);
    const videos = dashboard.page.getByLabel("Videos");
    const columns = dashboard.page.getByLabel("Columns");
    const submit = dashboard.page.getByRole("button", { name: "Submit job" });

    // The form's own check of the columns' lines: checked again as the lines are edited.
    await videos.fill(newVideoId());
    await columns.fill("product\nprice (money)");
    await submit.click();
    await alerts().getByText('Line 2 of Columns has the type "money"').waitFor(shows);
    await columns.fill("product\nprice (mone");
    await alerts().getByText("Line 2 of Columns is not").waitFor(shows);
    expect(await columns.getAttribute("aria-invalid")).toBe("true");
    await columns.fill("product\nprice (number)");
    expect(await alerts().count()).toBe(0);
    expect(await columns.getAttribute("aria-invalid")).toBe("false");

    // The server's error about a field: gone as that field is edited, kept while another one is.
    await videos.fill("not a video id");
    await submit.click();
    const refusal = dashboard.page.locator("#job-videos-error");
    await refusal.waitFor(shows);
    expect(await videos.getAttribute("aria-invalid")).toBe("true");
    await dashboard.page.getByLabel("Language").fill("en");
    expect(await refusal.count()).toBe(1);
    await videos.fill(newVideoId());
    expect(await refusal.count()).toBe(0);
    expect(await alerts().count()).toBe(0);
    expect(await videos.getAttribute("aria-invalid")).toBe("false");
    expect(dashboard.console.refusedStatuses).toEqual([400]);
  });

  it("clears a schema's name error as the name is edited", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.goto(`${dashboard.server.url}/dashboard/schemas/new`);
    const name = dashboard.page.getByLabel("Name", { exact: true });
    await name.fill("Not A Name!");
    await dashboard.page.getByLabel("Column 1 name").fill("product");
    await dashboard.page.getByRole("button", { name: "Create schema" }).click();
    const refusal = dashboard.page.locator("#schema-name-error");
    await refusal.waitFor(shows);
    await name.fill("a-name");
    expect(await refusal.count()).toBe(0);
    expect(await name.getAttribute("aria-invalid")).toBe("false");
    expect(dashboard.console.refusedStatuses).toEqual([400]);
  });
});
