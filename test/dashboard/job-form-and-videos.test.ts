// The dashboard does the work, in Chromium: a job submitted from the form settles on its page, video by
// video; a running job is cancelled; a failed job shows each video's code and message without its rows
// being taken; a taken job says so and offers no take.
import { describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { uniqueSchemaName } from "../support/endpoints.js";
import { handoverRecorded, newVideoId, waitFor } from "../support/jobs-api.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";

describe.skipIf(browserSkipReason !== null)(
  browserTitle("dashboard: the job form and a job's videos"),
  () => {
    const dashboard = useDashboardSuite();

    /** Settled, by the list: never by reading the job, which would take its rows. */
    const settledByList = (key: string, jobId: string) =>
      waitFor(`job ${jobId} to settle`, async () => {
        const item = (await dashboard.server.call("GET", `/v1?search=${jobId}`, { key })).body.data?.[0];
        return item && item.status !== "processing" ? item : undefined;
      });
    const videosTable = () => dashboard.page.getByRole("region", { name: "Videos of this job" });
    const openJob = async (jobId: string) => {
      await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/${jobId}`);
      await dashboard.page.getByRole("heading", { name: `Job ${jobId}` }).waitFor(shows);
    };

    it("submits a job from the form, typed columns and a language, and watches it settle video by video", async () => {
      const { key } = await dashboard.server.workspace("pro");
      const found = dashboard.server.video();
      const missing = newVideoId();
      await signIn(dashboard.page, dashboard.server.url, key);
      await dashboard.page.getByRole("link", { name: "Jobs" }).click();
      await dashboard.page.getByRole("link", { name: "New job" }).click();
      await dashboard.page.getByRole("heading", { name: "New job", level: 1 }).waitFor(shows);
      await dashboard.page
        .getByLabel("Videos")
        .fill(`https://www.youtube.com/watch?v=${found.id}\n${missing}\n`);
      await dashboard.page
        .getByLabel("Columns")
        .fill(
          "product (string): the product's name\nprice (number?): its price in dollars\nnote: anything else",
        );
      await dashboard.page.getByLabel("Language").fill("en");
      await checkPage(dashboard.page, "job-new");
      const submission = dashboard.page.waitForRequest(
        (request) => request.method() === "POST" && new URL(request.url()).pathname === "/v1",
      );
      await dashboard.page.getByRole("button", { name: "Submit job" }).click();
      // A typed column is required unless its type ends in `?`, as the hint says: the body says which.
      const template = {
        product: { description: "the product's name", type: "string", nullable: false },
        price: { description: "its price in dollars", type: "number", nullable: true },
        note: "anything else",
      };
      expect((await submission).postDataJSON().schema).toEqual({ template });

      await dashboard.page.getByRole("heading", { name: /^Job job_/ }).waitFor(shows);
      const jobId = (await dashboard.page.getByRole("heading", { level: 1 }).innerText())
        .replace("Job ", "")
        .trim();
      await dashboard.page.getByText("Partly failed").waitFor(shows);
      const table = videosTable();
      for (const header of ["Video", "Status", "Error"]) {
        await table.getByRole("columnheader", { name: header }).waitFor(shows);
      }
      const foundRow = table.locator(`tr[data-video="${found.id}"]`);
      await foundRow.getByText("Done").waitFor(shows);
      expect(await foundRow.getByText("0:30").count()).toBe(1);
      await table.locator(`tr[data-video="${missing}"]`).getByText("no_captions").waitFor(shows);
      await dashboard.page.getByRole("button", { name: "Take rows" }).waitFor(shows);
      await checkPage(dashboard.page, "job-from-form");

      // The job was submitted as the form said: the typed template and the language.
      const job = await dashboard.server.app.store.db
        .selectFrom("jobs")
        .select(["schema_definition", "language", "handed_over_at"])
        .where("id", "=", jobId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(job.schema_definition)).toEqual({ template });
      expect(job.language).toBe("en");
      expect(job.handed_over_at).toBeNull();
    });

    it("submits a job with a saved schema at a chosen version", async () => {
      const { key } = await dashboard.server.workspace("pro");
      const name = uniqueSchemaName();
      const created = await dashboard.server.call("POST", "/v1/schemas", {
        key,
        body: { name, schema: { columns: ["product", "price"] } },
      });
      expect(created.status, created.text).toBe(201);
      const published = await dashboard.server.call("POST", `/v1/schemas/${created.body.id}/versions`, {
        key,
        body: { schema: { columns: ["product", "price", "colour"] } },
      });
      expect(published.status, published.text).toBe(201);
      await signIn(dashboard.page, dashboard.server.url, key);
      await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/new`);
      await dashboard.page.getByLabel("Videos").fill(dashboard.server.video().id);
      await dashboard.page.getByLabel("Saved", { exact: true }).check();
      await dashboard.page.getByLabel("Saved schema").selectOption({ label: name });
      await dashboard.page.getByLabel("Version").selectOption("1");
      await checkPage(dashboard.page, "job-new-saved");
      await dashboard.page.getByRole("button", { name: "Submit job" }).click();
      await dashboard.page.locator("p > .status-done").waitFor(shows);
      await dashboard.page.getByText(`${name}-v1`).waitFor(shows);
    });

    it("names a line of Columns it cannot read, and sends nothing", async () => {
      const { key } = await dashboard.server.workspace("pro");
      await signIn(dashboard.page, dashboard.server.url, key);
      await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/new`);
      await dashboard.page.getByLabel("Videos").fill(newVideoId());
      await dashboard.page.getByLabel("Columns").fill("product\nprice (money)");
      await dashboard.page.getByRole("button", { name: "Submit job" }).click();
      await dashboard.page.getByText('Line 2 of Columns has the type "money"').waitFor(shows);
      expect((await dashboard.server.call("GET", "/v1", { key })).body.pagination.total).toBe(0);
    });

    it("cancels a running job from its page", async () => {
      const { key } = await dashboard.server.workspace("pro");
      const held = dashboard.server.video({ held: true });
      const jobId = await dashboard.server.submitJob(key, [held.id]);
      await signIn(dashboard.page, dashboard.server.url, key);
      await openJob(jobId);
      await dashboard.page.getByText("Running", { exact: true }).waitFor(shows);
      await checkPage(dashboard.page, "job-running");
      // Cancelling asks first, in the dashboard's own dialog; backing out sends nothing.
      const cancels: string[] = [];
      dashboard.page.on("request", (request) => {
        if (request.url().endsWith(`/v1/${jobId}/cancel`)) cancels.push(request.method());
      });
      await dashboard.page.getByRole("button", { name: "Cancel job" }).click();
      const dialog = dashboard.page.getByRole("dialog", { name: "Cancel this job?" });
      await dialog.waitFor(shows);
      await checkPage(dashboard.page, "job-cancel-confirm");
      await dialog.getByRole("button", { name: "Keep it running" }).click();
      await dialog.waitFor({ state: "hidden", ...shows });
      await dashboard.page.getByRole("button", { name: "Cancel job" }).click();
      // The held video is let go only once the cancellation is answered: let go before, it could finish
      // first, and the job be done rather than cancelled.
      const cancelAnswered = dashboard.page.waitForResponse(
        (response) => response.url().endsWith(`/v1/${jobId}/cancel`),
        shows,
      );
      await dialog.getByRole("button", { name: "Yes, cancel the job" }).click();
      expect((await cancelAnswered).status()).toBe(200);

      // A cancelled job reads "Cancelled", in grey, never a red "Failed": on its page and in the list.
      held.release();
      const cancelled = dashboard.page.locator("p > .status-cancelled");
      await cancelled.waitFor(shows);
      expect(await cancelled.innerText()).toBe("Cancelled");
      expect(await dashboard.page.locator(".status-failed").count()).toBe(0);
      expect(await dashboard.page.locator("progress").getAttribute("class")).toContain("progress-cancelled");
      await videosTable().getByText("cancelled", { exact: true }).waitFor(shows);
      expect(cancels).toEqual(["POST"]);
      expect(await dashboard.page.getByRole("button", { name: "Cancel job" }).count()).toBe(0);
      expect(await dashboard.page.getByRole("button", { name: "Take rows" }).count()).toBe(0);
      // The videos the cancellation failed read so too, in the same grey as the secondary text.
      await videosTable().locator(".status-cancelled").getByText("Cancelled").waitFor(shows);
      const colours = await dashboard.page.evaluate(`[
        getComputedStyle(document.querySelector("p > .status-cancelled")).color,
        getComputedStyle(document.querySelector(".figures dt")).color,
      ]`);
      expect((colours as string[])[0]).toBe((colours as string[])[1]);
      await checkPage(dashboard.page, "job-cancelled");
      await dashboard.page.getByRole("link", { name: "Jobs" }).first().click();
      const listed = dashboard.page.locator(`tr[data-job="${jobId}"] .status-cancelled`);
      await listed.waitFor(shows);
      expect(await listed.innerText()).toBe("Cancelled");
      await checkPage(dashboard.page, "jobs-cancelled");
    });

    it("shows a failed job's videos with their code and message, without taking anything or offering to", async () => {
      const { key } = await dashboard.server.workspace("pro");
      const missing = [newVideoId(), newVideoId()];
      const jobId = await dashboard.server.submitJob(key, missing);
      await settledByList(key, jobId);
      await signIn(dashboard.page, dashboard.server.url, key);
      await openJob(jobId);
      const table = videosTable();
      for (const id of missing) {
        const row = table.locator(`tr[data-video="${id}"]`);
        await row.getByText("no_captions").waitFor(shows);
        expect((await row.locator("td.video-error").innerText()).length).toBeGreaterThan(
          "no_captions ".length,
        );
      }
      await dashboard.page.getByText("No rows to take: every video of this job failed").waitFor(shows);
      expect(await dashboard.page.getByRole("button", { name: "Take rows" }).count()).toBe(0);
      expect(await dashboard.page.getByText("This can be done once").count()).toBe(0);
      expect(await dashboard.page.locator("progress").getAttribute("class")).toContain("progress-failed");
      await checkPage(dashboard.page, "job-failed");
      const videos = await dashboard.server.call("GET", `/v1/${jobId}/videos`, { key });
      expect(videos.body.handed_over_at).toBeNull();
    });

    it("says when a job's rows were taken, and offers no take", async () => {
      const { key } = await dashboard.server.workspace("pro");
      const jobId = await dashboard.server.submitJob(key, [dashboard.server.video().id]);
      await settledByList(key, jobId);
      const read = await dashboard.server.call("GET", `/v1/${jobId}`, { key });
      expect(read.body.results[0].rows).not.toBeNull();
      await handoverRecorded(dashboard.server.app.store.db, jobId);
      await signIn(dashboard.page, dashboard.server.url, key);
      await openJob(jobId);
      await dashboard.page.getByText(/^Rows taken/).waitFor(shows);
      await videosTable().getByText("Done").waitFor(shows);
      expect(await dashboard.page.getByRole("button", { name: "Take rows" }).count()).toBe(0);
      await checkPage(dashboard.page, "job-taken-elsewhere");
    });
  },
);
