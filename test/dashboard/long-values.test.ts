// Long values on a phone's screen (390 px): ids, a long schema name, long URLs and long cells wrap or
// scroll inside their table, and the page itself never scrolls sideways.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";
import { waitFor } from "../support/jobs-api.js";

const phone = { width: 390, height: 844 };

/** How far the page reaches past the screen's right edge, in pixels (0 or less: it fits). */
const overflow = (page: Page): Promise<number> =>
  page.evaluate("document.documentElement.scrollWidth - window.innerWidth") as Promise<number>;

/**
 * The cells of the tables shown as cards on a phone whose text runs past the card (cut off by the card's
 * scrolling frame, so the page's width alone would not show it), named with what they hold.
 */
const cutCells = (page: Page): Promise<string[]> =>
  page.evaluate(`[...document.querySelectorAll("table.stack td, table.stack th, .table-scroll")]
    .filter((element) => element.closest(".table-scroll")?.querySelector("table.stack"))
    .filter((element) => element.scrollWidth > element.clientWidth + 1)
    .map((element) => (element.getAttribute("data-label") ?? element.className) + ": " + element.textContent.slice(0, 40))`) as Promise<
    string[]
  >;

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: long values at 390 px"), () => {
  const dashboard = useDashboardSuite();

  it("keeps the job list and a job's page, its rows taken, within a 390 px screen", async () => {
    const { key } = await dashboard.server.workspace("pro");
    // The longest name a schema may have, as its label `<name>-v1` on the list and the page.
    const name = `long-${"a1b2c3d4e5".repeat(6)}`.slice(0, 64);
    const saved = await dashboard.server.call("POST", "/v1/schemas", {
      key,
      body: { name, schema: { columns: ["product", "price"] } },
    });
    expect(saved.status, saved.text).toBe(201);
    const longUrl = `https://example.com/${"catalogue/".repeat(12)}item?ref=${"x".repeat(80)}`;
    const video = dashboard.server.video({
      rows: [
        { product: `A product whose name runs on: ${"unbroken".repeat(30)}`, price: 1 },
        { product: longUrl, price: 2 },
      ],
    });
    const submitted = await dashboard.server.call("POST", "/v1", {
      key,
      body: {
        videos: [`https://www.youtube.com/watch?v=${video.id}&t=1s&feature=${"share".repeat(60)}`],
        schema_id: saved.body.id,
      },
    });
    expect(submitted.status, submitted.text).toBe(202);
    const jobId: string = submitted.body.job_id;
    // Settled, by the list: reading the job would take its rows.
    await waitFor(`job ${jobId} to settle`, async () => {
      const item = (await dashboard.server.call("GET", `/v1?search=${jobId}`, { key })).body.data?.[0];
      return item?.status === "done" ? item : undefined;
    });

    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.setViewportSize(phone);
    await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs`);
    await dashboard.page.locator(`tr[data-job="${jobId}"]`).getByText(`${name}-v1`).waitFor(shows);
    await dashboard.page.locator(`tr[data-job="${jobId}"] .status-done`).waitFor(shows);
    expect(await overflow(dashboard.page), "the job list scrolls sideways").toBeLessThanOrEqual(0);
    expect(await cutCells(dashboard.page)).toEqual([]);
    await checkPage(dashboard.page, "jobs-long-values");

    await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/${jobId}`);
    await dashboard.page.getByRole("heading", { name: `Job ${jobId}` }).waitFor(shows);
    await dashboard.page.getByRole("button", { name: "Take rows" }).click();
    await dashboard.page.getByRole("dialog").getByRole("button", { name: "Yes, take the rows" }).click();
    await dashboard.page.getByText(longUrl).waitFor(shows);
    expect(await overflow(dashboard.page), "the job's page scrolls sideways").toBeLessThanOrEqual(0);
    expect(await cutCells(dashboard.page)).toEqual([]);
    await checkPage(dashboard.page, "job-long-values");
  });
});
