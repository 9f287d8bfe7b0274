// The dashboard's per-video table with videos of other platforms, in Chromium: each shown by its
// `<platform>:<id>`, a long one (a media file's name) wrapping inside its cell rather than widening the
// page, at 1280 and at 390 px.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle, launchChromium, newBrowsing } from "../support/browser.js";
import { checkPage, shows, signIn, watchConsole } from "../support/dashboard-pages.js";
import {
  createFakePlatformYtDlp,
  type FakePlatformYtDlp,
  recordedPage,
} from "../support/fake-platform-ytdlp.js";
import { waitFor } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";

const vimeoUrl = "https://vimeo.com/76979871";
const longName = `annual-general-meeting-${"and-questions-from-the-floor-".repeat(5)}2024`;
const longUrl = `https://media.example.org/archive/${longName}.mp4`;

describe.skipIf(browserSkipReason !== null)(browserTitle("dashboard: videos of other platforms"), () => {
  let server: PipelineServer;
  let ytDlp: FakePlatformYtDlp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ytDlp = createFakePlatformYtDlp();
    const media = recordedPage("generic-keynote.info.json");
    ytDlp.setPages({
      [vimeoUrl]: recordedPage("vimeo-76979871.info.json", { en: "vimeo-76979871.en.vtt" }),
      // The media file's recording, under a long name: yt-dlp names a file by its name.
      [longUrl]: {
        info: {
          ...media.info,
          id: longName,
          display_id: longName,
          webpage_url: longUrl,
          original_url: longUrl,
        },
      },
    });
    [server, browser] = await Promise.all([
      startPipelineServer("sqlite", { config: { ytDlpPath: ytDlp.path, otherPlatforms: "any" } }),
      launchChromium(),
    ]);
    context = await newBrowsing(browser);
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    ytDlp?.remove();
  });

  it("lists each video by its video_id, a long one wrapped within a 390 px screen", async () => {
    const console_ = watchConsole(page);
    const { key } = await server.workspace("pro");
    const submitted = await server.call("POST", "/v1", {
      key,
      body: { videos: [vimeoUrl, longUrl], schema: { columns: ["product", "price"] }, language: "en" },
    });
    expect(submitted.status, submitted.text).toBe(202);
    const jobId = submitted.body.job_id as string;
    // Settled, by the list of its videos: never by reading the job, which would take its rows.
    await waitFor(`job ${jobId} to settle`, async () => {
      const videos = (await server.call("GET", `/v1/${jobId}/videos`, { key })).body.data;
      return videos.every(
        (video: { status: string }) => video.status !== "queued" && video.status !== "processing",
      )
        ? videos
        : undefined;
    });
    await signIn(page, server.url, key);
    await page.goto(`${server.url}/dashboard/jobs/${jobId}`);
    await page.getByRole("heading", { name: `Job ${jobId}` }).waitFor(shows);
    const table = page.getByRole("region", { name: "Videos of this job" });
    await table.locator('tr[data-video="vimeo:76979871"]').getByText("Done").waitFor(shows);
    const long = table.locator(`tr[data-video="generic:${longName}"]`);
    // The id's own cell: the row's error message names the video too (by its current id).
    await long.locator("td.video-id").getByText(`generic:${longName}`).waitFor(shows);
    // Wrapped over several lines in its cell, so the table needs no sideways scroll at 1280 px.
    const cell = await long.locator("td.video-id code").boundingBox();
    expect(cell?.width ?? Infinity).toBeLessThanOrEqual(24 * 16);
    const sideways = await page.evaluate(
      `[...document.querySelectorAll(".table-scroll")].map((element) => element.scrollWidth - element.clientWidth)`,
    );
    expect(sideways).toEqual((sideways as number[]).map(() => 0));
    await checkPage(page, "job-other-platforms");
    expect(console_.errors, "console errors").toEqual([]);
  });
});
