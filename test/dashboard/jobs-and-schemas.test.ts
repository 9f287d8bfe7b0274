// The dashboard in Chromium: a job submitted through the API settles in the list, its rows are taken
// once (shown, downloaded as CSV, no cell a live formula), a second visit finds them taken (and offers no take); schemas are
// created and versioned.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { uniqueSchemaName } from "../support/endpoints.js";
import { handoverRecorded } from "../support/jobs-api.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: jobs and schemas"), () => {
  const dashboard = useDashboardSuite();

  it("shows an empty list before any job", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "Jobs" }).click();
    await dashboard.page.getByText("No jobs yet.").waitFor(shows);
    await checkPage(dashboard.page, "jobs-empty");
  });

  it("watches a job settle in the list, takes its rows once, downloads them, and finds them taken later", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const held = dashboard.server.video({ held: true });
    const jobId = await dashboard.server.submitJob(key, [held.id, "nocaptions1"]);
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "Jobs" }).click();
    const row = dashboard.page.locator(`tr[data-job="${jobId}"]`);
    await row.getByText("Running").waitFor(shows);
    await checkPage(dashboard.page, "jobs-running");
    // The filters and the search ask the server, and it answers with this job.
    await dashboard.page.getByLabel("Status").selectOption("running");
    await row.waitFor(shows);
    await dashboard.page.getByLabel("Status").selectOption("succeeded");
    await dashboard.page.getByText("No job matches.").waitFor(shows);
    await dashboard.page.getByLabel("Status").selectOption("");
    await dashboard.page.getByLabel("Search").fill(jobId.slice(0, 8));
    await dashboard.page.getByRole("button", { name: "Search" }).click();
    await row.waitFor(shows);

    held.release();
    await row.getByText("Partly failed").waitFor(shows);
    expect(await row.locator("progress").getAttribute("value")).toBe("2");

    await row.getByRole("link", { name: jobId }).click();
    await dashboard.page.getByRole("heading", { name: `Job ${jobId}` }).waitFor(shows);
    await checkPage(dashboard.page, "job-settled");
    await dashboard.page.getByRole("button", { name: "Take rows" }).click();
    const dialog = dashboard.page.getByRole("dialog", { name: "Take the rows now?" });
    await dialog.getByText("This can be done once.").waitFor(shows);
    await dashboard.page.getByRole("button", { name: "Yes, take the rows" }).click();
    const rows = dashboard.page.getByRole("region", { name: "Rows" });
    await rows.getByRole("cell", { name: "widget, large" }).waitFor(shows);
    // Each row links to where it came from: the whole of the video's one 30-second caption line.
    const source = rows.getByRole("link", { name: "0:00–0:30" });
    expect(await source.getAttribute("href")).toBe(`https://www.youtube.com/watch?v=${held.id}&t=0s`);
    expect(await source.getAttribute("rel")).toBe("noopener noreferrer");
    // The model wrote "widget, large" where the captions say "the large widget": marked, the price not.
    const product = rows.getByRole("cell", { name: "widget, large" });
    expect(await product.getAttribute("class")).toBe("unverified");
    expect(await product.textContent()).toBe("widget, large (not in quote)");
    expect(await rows.getByRole("cell", { name: "5", exact: true }).getAttribute("class")).toBeNull();
    // The quote is shown on demand.
    const quote = rows.locator("details.quote blockquote");
    expect(await quote.isVisible()).toBe(false);
    await rows.getByText("Quote", { exact: true }).click();
    await quote.waitFor(shows);
    expect(await quote.textContent()).toContain("We sell the large widget for five dollars.");
    await dashboard.page.getByText("no_captions").waitFor(shows);
    await checkPage(dashboard.page, "job-rows");

    const [download] = await Promise.all([
      dashboard.page.waitForEvent("download", shows),
      dashboard.page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${jobId}.csv`);
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv).toBe(`video_id,product,price\r\n${held.id},"widget, large",5\r\n`);
    const [json] = await Promise.all([
      dashboard.page.waitForEvent("download", shows),
      dashboard.page.getByRole("button", { name: "Download JSON" }).click(),
    ]);
    const taken = JSON.parse(readFileSync((await json.path())!, "utf8"));
    expect(taken.job_id).toBe(jobId);
    expect(taken.results.find((video: any) => video.video_id === held.id).rows).toEqual({
      results: [{ product: "widget, large", price: 5 }],
      sources: [
        {
          start_seconds: 0,
          end_seconds: 30,
          url: `https://www.youtube.com/watch?v=${held.id}&t=0s`,
          quote: expect.any(String),
          unverified: expect.any(Array),
        },
      ],
    });

    // The dashboard's read was the handover: the API has no rows left to give.
    const after = await dashboard.server.call("GET", `/v1/${jobId}`, { key });
    expect(after.body.results.every((video: any) => video.rows === null)).toBe(true);

    // Once the handover is recorded, the page says the rows were taken, and offers no take.
    await handoverRecorded(dashboard.server.app.store.db, jobId);
    await dashboard.page.reload();
    await dashboard.page.getByText(/^Rows taken/).waitFor(shows);
    await dashboard.page.getByText("Nobody can get them again").waitFor(shows);
    expect(await dashboard.page.getByRole("button", { name: "Take rows" }).count()).toBe(0);
    expect(await dashboard.page.getByRole("button", { name: "Download CSV" }).count()).toBe(0);
    await checkPage(dashboard.page, "job-taken");
  });

  it("downloads a CSV in which no cell starts a formula and plain numbers stay numbers", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const video = dashboard.server.video({
      rows: [
        { product: '=HYPERLINK("http://evil.example","x")', price: -12 },
        { product: "+1+2", price: "-3.5" },
        { product: "-2+3", price: "@SUM(A1)" },
        { product: "\tlead", price: "\r=1" },
      ],
    });
    const jobId = await dashboard.server.submitJob(key, [video.id]);
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/${jobId}`);
    await dashboard.page.getByRole("button", { name: "Take rows" }).click();
    await dashboard.page.getByRole("button", { name: "Yes, take the rows" }).click();
    const rows = dashboard.page.getByRole("region", { name: "Rows" });
    // The page shows the values as they are; only the spreadsheet file is neutralised.
    await rows.getByRole("cell", { name: "+1+2" }).waitFor(shows);
    await checkPage(dashboard.page, "job-rows-formulas");
    const [download] = await Promise.all([
      dashboard.page.waitForEvent("download", shows),
      dashboard.page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(readFileSync((await download.path())!, "utf8")).toBe(
      "video_id,product,price\r\n" +
        `${video.id},"'=HYPERLINK(""http://evil.example"",""x"")",-12\r\n` +
        `${video.id},'+1+2,-3.5\r\n` +
        `${video.id},'-2+3,'@SUM(A1)\r\n` +
        `${video.id},'\tlead,"'\r=1"\r\n`,
    );
  });

  it("pages through the list, 25 jobs a page", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const jobIds: string[] = [];
    for (let i = 0; i < 26; i++)
      jobIds.push(await dashboard.server.submitJob(key, [`nocaption${String(i).padStart(2, "0")}`]));
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "Jobs" }).click();
    const shownIds = () =>
      dashboard.page
        .locator("tr[data-job]")
        .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-job")));
    await dashboard.page.getByText("1–25 of 26").waitFor(shows);
    const first = await shownIds();
    expect(first).toHaveLength(25);
    expect(await dashboard.page.getByRole("button", { name: "Previous" }).isDisabled()).toBe(true);
    await dashboard.page.getByRole("button", { name: "Next" }).click();
    await dashboard.page.getByText("26–26 of 26").waitFor(shows);
    const second = await shownIds();
    expect([...first, ...second].sort()).toEqual([...jobIds].sort());
    expect(await dashboard.page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await dashboard.page.getByRole("button", { name: "Previous" }).click();
    await dashboard.page.getByText("1–25 of 26").waitFor(shows);
  });

  it("follows a running job's progress on its page without taking its rows", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const held = dashboard.server.video({ held: true });
    const jobId = await dashboard.server.submitJob(key, [held.id]);
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/${jobId}`);
    await dashboard.page.getByText("Running: this page follows its progress.").waitFor(shows);
    expect(await dashboard.page.getByRole("button", { name: "Take rows" }).count()).toBe(0);
    held.release();
    await dashboard.page.getByRole("button", { name: "Take rows" }).waitFor(shows);
    // Polling read the job's progress only: the rows are still there for their one reader.
    const read = await dashboard.server.call("GET", `/v1/${jobId}`, { key });
    expect(read.body.results[0].rows.results).toEqual([{ product: "widget, large", price: 5 }]);
  });

  it("creates a schema (the server's errors beside their field) and publishes a version", async () => {
    const { key } = await dashboard.server.workspace("pro");
    await signIn(dashboard.page, dashboard.server.url, key);
    await dashboard.page.getByRole("link", { name: "Schemas" }).click();
    await dashboard.page.getByText("No saved schemas yet.").waitFor(shows);
    await checkPage(dashboard.page, "schemas-empty");
    await dashboard.page.getByRole("link", { name: "Create schema" }).click();
    await dashboard.page.getByLabel("Name", { exact: true }).fill("Not A Valid Name");
    await dashboard.page.getByLabel("Column 1 name").fill("product");
    await dashboard.page.getByLabel("Column 1 description").fill("What is sold");
    await dashboard.page.getByRole("button", { name: "Create schema" }).click();
    const nameError = dashboard.page.locator("#schema-name-error");
    await nameError.waitFor(shows);
    expect(await nameError.textContent()).toMatch(/Request id: \S+/);
    expect(await dashboard.page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe(
      "true",
    );
    await checkPage(dashboard.page, "schema-new-error");

    const name = uniqueSchemaName();
    await dashboard.page.getByLabel("Name", { exact: true }).fill(name);
    await dashboard.page.getByLabel("Description", { exact: true }).fill("Products and prices");
    await dashboard.page.getByRole("button", { name: "Add column" }).click();
    await dashboard.page.getByLabel("Column 2 name").fill("price");
    await dashboard.page.getByLabel("Column 2 description").fill("Price in dollars");
    await dashboard.page.getByRole("button", { name: "Create schema" }).click();
    await dashboard.page.getByRole("heading", { name, level: 1 }).waitFor(shows);
    await dashboard.page.getByRole("heading", { name: `${name}-v1` }).waitFor(shows);

    await dashboard.page.getByRole("button", { name: "Add column" }).click();
    await dashboard.page.getByLabel("Column 3 name").fill("currency");
    await dashboard.page.getByLabel("Column 3 description").fill("ISO code");
    await dashboard.page.getByLabel("Description of this version").fill("Adds the currency");
    await dashboard.page.getByRole("button", { name: "Publish version" }).click();
    await dashboard.page.getByText("Published version 2.").waitFor(shows);
    await dashboard.page.getByRole("heading", { name: `${name}-v2` }).waitFor(shows);
    await checkPage(dashboard.page, "schema");

    const id = dashboard.page.url().split("/").at(-1)!;
    const saved = (await dashboard.server.call("GET", `/v1/schemas/${id}`, { key })).body;
    expect(saved.versions.map((version: any) => version.schema)).toEqual([
      { template: { product: "What is sold", price: "Price in dollars" } },
      { template: { product: "What is sold", price: "Price in dollars", currency: "ISO code" } },
    ]);
    await dashboard.page.getByRole("link", { name: "Schemas" }).first().click();
    await dashboard.page.getByRole("link", { name: `${name}-v2` }).waitFor(shows);
    await checkPage(dashboard.page, "schemas");
    expect(dashboard.console.refusedStatuses).toEqual([400]);
  });
});
