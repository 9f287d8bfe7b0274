// The dashboard and kept transcripts, in Chromium: the job form's "Reuse kept transcripts" box (ticked, the
// body says nothing and a video read before is reused; unticked, the body says `reuse: false` and the video
// is read afresh), and the per-video table's Transcript column: captions, speech-to-text or reused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";
import { createFakeAudioYtDlp, type FakeAudioYtDlp, wavBytes } from "../support/fake-audio-ytdlp.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
  fakeTranscriptionSettings,
} from "../support/fake-transcription.js";
import { newVideoId } from "../support/jobs-api.js";
import { useWorkBudgets } from "../support/time-budgets.js";
import { workerKeepingTranscripts } from "../support/test-server.js";

// Jobs settle through a worker (and a fake yt-dlp run) on a machine other suites share.
useWorkBudgets();

const skipReason = browserSkipReason ?? ffmpegMissing();

describe.skipIf(skipReason !== null)(browserTitle("dashboard: kept transcripts"), () => {
  let transcription: FakeTranscription;
  let ytDlp: FakeAudioYtDlp;
  beforeAll(async () => {
    transcription = await startFakeTranscription(() =>
      verboseReply([[0, 20, "The large widget costs five dollars."]]),
    );
    ytDlp = createFakeAudioYtDlp();
    ytDlp.setAudio(wavBytes(20), 20);
  });
  // Registered after the fakes start, so that the server reads their addresses. Transcripts are kept a day,
  // as the server's default (a test server keeps none unless told).
  const dashboard = useDashboardSuite(() => ({
    worker: workerKeepingTranscripts,
    ytDlpPath: ytDlp.path,
    transcription: fakeTranscriptionSettings(transcription),
  }));
  afterAll(async () => {
    await transcription?.close();
    ytDlp?.remove();
  });

  /** Fills the form for `videoId` and submits it, with the reuse box as `reuse` says; answers the body sent. */
  async function submitFromForm(videoId: string, reuse: boolean, screenshot?: string) {
    const page = dashboard.page;
    await page.goto(`${dashboard.server.url}/dashboard/jobs/new`);
    await page.getByRole("heading", { name: "New job", level: 1 }).waitFor(shows);
    await page.getByLabel("Videos").fill(videoId);
    await page.getByLabel("Columns").fill("product\nprice");
    const box = page.getByRole("checkbox", { name: "Reuse kept transcripts" });
    // Ticked unless the person unticks it: reusing is the server's default too.
    expect(await box.isChecked()).toBe(true);
    if (!reuse) await box.uncheck();
    if (screenshot !== undefined) await checkPage(page, screenshot);
    const submission = page.waitForRequest(
      (request) => request.method() === "POST" && new URL(request.url()).pathname === "/v1",
    );
    await page.getByRole("button", { name: "Submit job" }).click();
    const body = (await submission).postDataJSON();
    await page.getByRole("heading", { name: /^Job job_/ }).waitFor(shows);
    return body;
  }

  /** The Transcript cell of `videoId`'s row on the job page open now, once the video is done. */
  async function transcriptCell(videoId: string) {
    const row = dashboard.page
      .getByRole("region", { name: "Videos of this job" })
      .locator(`tr[data-video="${videoId}"]`);
    await row.getByText("Done").waitFor(shows);
    return row.locator("td.video-transcript").innerText();
  }

  it("reuses a video read before when the box stays ticked, and reads it afresh when it is unticked", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const video = dashboard.server.video();
    await signIn(dashboard.page, dashboard.server.url, key);

    const first = await submitFromForm(video.id, true, "job-new-reuse");
    expect(first).not.toHaveProperty("reuse");
    expect(await transcriptCell(video.id)).toBe("Captions");
    await dashboard.page
      .getByRole("region", { name: "Videos of this job" })
      .getByRole("columnheader", { name: "Transcript" })
      .waitFor(shows);

    const again = await submitFromForm(video.id, true);
    expect(again).not.toHaveProperty("reuse");
    expect(await transcriptCell(video.id)).toBe("Reused");
    await checkPage(dashboard.page, "job-reused-transcript");

    const fresh = await submitFromForm(video.id, false, "job-new-no-reuse");
    expect(fresh.reuse).toBe(false);
    expect(await transcriptCell(video.id)).toBe("Captions");
  });

  it("says Speech-to-text for a video transcribed from its audio, and Reused when a later job reuses it", async () => {
    const { key } = await dashboard.server.workspace("pro");
    const videoId = newVideoId();
    const uploads = transcription.uploads.length;
    await signIn(dashboard.page, dashboard.server.url, key);

    await submitFromForm(videoId, true);
    expect(await transcriptCell(videoId)).toBe("Speech-to-text");
    await checkPage(dashboard.page, "job-speech-to-text");
    expect(transcription.uploads.length).toBe(uploads + 1);

    await submitFromForm(videoId, true);
    expect(await transcriptCell(videoId)).toBe("Reused");
    // Reused: the audio was not sent to the transcription service again.
    expect(transcription.uploads.length).toBe(uploads + 1);
  });
});
