// The job form's "From a playlist or channel", in Chromium: "List videos" fills Videos from the server's
// listing (count, titles, has_more), a refused address is said beside the field, and the job goes out with
// the listed videos and the transcription chosen.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";
import {
  createFakeListingYtDlp,
  type FakeListingYtDlp,
  recordedListing,
} from "../support/fake-listing-ytdlp.js";

const channelTab = "https://www.youtube.com/@kitchenlab/videos";
const playlistPage = "https://www.youtube.com/playlist?list=PLkitchenLabBreadBasics01";

describe.skipIf(browserSkipReason !== null)(
  browserTitle("dashboard: listing a playlist or channel into the job form"),
  () => {
    let ytDlp: FakeListingYtDlp;
    beforeAll(() => {
      ytDlp = createFakeListingYtDlp();
      ytDlp.script({
        [channelTab]: { listing: recordedListing("youtube-channel-videos.json") },
        [playlistPage]: { listing: recordedListing("youtube-playlist.json") },
      });
    });
    afterAll(() => ytDlp?.remove());
    const dashboard = useDashboardSuite(() => ({ ytDlpPath: ytDlp.path }));

    const openForm = async () => {
      const { key } = await dashboard.server.workspace("pro");
      await signIn(dashboard.page, dashboard.server.url, key);
      await dashboard.page.goto(`${dashboard.server.url}/dashboard/jobs/new`);
      await dashboard.page.getByRole("heading", { name: "New job", level: 1 }).waitFor(shows);
      return key;
    };

    it("lists a channel's videos into Videos, with their titles and that there are more, and submits them", async () => {
      const key = await openForm();
      await dashboard.page.getByLabel("Videos", { exact: true }).fill("dQw4w9WgXcQ\n");
      await dashboard.page
        .getByLabel("From a playlist or channel")
        .fill("https://www.youtube.com/@kitchenlab");
      await dashboard.page.getByLabel("At most").fill("4");
      await dashboard.page.getByRole("button", { name: "List videos" }).click();
      await dashboard.page
        .getByText("4 videos listed and added to Videos; the playlist or channel has more")
        .waitFor(shows);
      const titles = dashboard.page.getByRole("list", { name: "Listed videos" }).getByRole("listitem");
      expect(await titles.allInnerTexts()).toEqual([
        "Kitchen Lab episode 39",
        "Kitchen Lab episode 38 (6:14)",
        "Kitchen Lab episode 37 (6:58)",
        "Kitchen Lab episode 36 (7:28)",
      ]);
      expect(await dashboard.page.getByLabel("Videos", { exact: true }).inputValue()).toBe(
        [
          "dQw4w9WgXcQ",
          ...["01", "02", "03", "04"].map((n) => `https://www.youtube.com/watch?v=chanvideo${n}`),
          "",
        ].join("\n"),
      );
      // Listing again adds nothing twice.
      await dashboard.page.getByRole("button", { name: "List videos" }).click();
      await dashboard.page.getByText("4 videos listed").waitFor(shows);
      expect(
        (await dashboard.page.getByLabel("Videos", { exact: true }).inputValue())
          .split("\n")
          .filter((l) => l !== ""),
      ).toHaveLength(5);

      await dashboard.page.getByLabel("Columns").fill("dish\nminutes (integer?)");
      await dashboard.page.getByRole("radio", { name: "Never" }).check();
      await checkPage(dashboard.page, "job-new-from-channel");
      await dashboard.page.getByRole("button", { name: "Submit job" }).click();
      await dashboard.page.getByRole("heading", { name: /^Job job_/ }).waitFor(shows);
      const jobId = (await dashboard.page.getByRole("heading", { level: 1 }).innerText())
        .replace("Job ", "")
        .trim();
      const videos = await dashboard.server.call("GET", `/v1/${jobId}/videos`, { key });
      expect(videos.body.data.map((video: any) => video.video_id)).toEqual([
        "dQw4w9WgXcQ",
        "chanvideo01",
        "chanvideo02",
        "chanvideo03",
        "chanvideo04",
      ]);
      const job = await dashboard.server.app.store.db
        .selectFrom("jobs")
        .select("transcribe")
        .where("id", "=", jobId)
        .executeTakeFirstOrThrow();
      expect(job.transcribe).toBe("never");
    });

    it("lists a whole playlist with Enter, and says why an address is refused, beside the field", async () => {
      await openForm();
      const from = dashboard.page.getByLabel("From a playlist or channel");
      await from.fill(playlistPage);
      await from.press("Enter");
      await dashboard.page.getByText("5 videos listed and added to Videos.").waitFor(shows);
      expect(await dashboard.page.getByRole("heading", { name: "New job", level: 1 }).count()).toBe(1);
      expect(
        await dashboard.page.getByRole("list", { name: "Listed videos" }).getByRole("listitem").count(),
      ).toBe(5);

      await from.fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
      await dashboard.page.getByRole("button", { name: "List videos" }).click();
      const refusal = dashboard.page.locator("#job-from-error");
      await refusal.getByText(/one video, not of a playlist or channel/).waitFor(shows);
      expect(await from.getAttribute("aria-invalid")).toBe("true");
      expect(dashboard.console.refusedStatuses).toEqual([400]);
      await checkPage(dashboard.page, "job-new-listing-refused");
    });
  },
);
