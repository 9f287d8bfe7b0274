// The New job form's files, in Chromium: a file chosen with the picker is uploaded at once, its progress
// shown while the server has not answered (the job cannot be submitted meanwhile), then its measured
// length; the job is sent with it as `upload:<upload_id>` and takes it as its video. A file dropped on the
// field is uploaded too, and one that is not media shows the server's reason. Removing a file deletes its
// upload from the server.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { uploadSettings } from "../../src/config/upload-settings.js";
import { browserSkipReason, browserTitle } from "../support/browser.js";
import { checkPage, shows, signIn } from "../support/dashboard-pages.js";
import { useDashboardSuite } from "../support/dashboard-suite.js";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { startHoldingProxy } from "../support/holding-proxy.js";
import { subtitledFile, toneFile } from "../support/media-files.js";

const skipReason = browserSkipReason ?? ffmpegMissing();

describe.skipIf(skipReason !== null)(browserTitle("dashboard: files uploaded from the job form"), () => {
  const media = mkdtempSync(join(tmpdir(), "vidrows-dashboard-media-"));
  const store = mkdtempSync(join(tmpdir(), "vidrows-dashboard-uploads-"));
  const dashboard = useDashboardSuite(() => ({
    uploads: {
      ...uploadSettings({ VIDROWS_UPLOAD_RESERVE_MB: "0" }, { kind: "sqlite", path: "unused" }),
      store: { kind: "folder", path: store },
    },
  }));
  afterAll(() => {
    rmSync(media, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
  });

  /** Opens the New job form at `root` (the server, or a proxy in front of it) signed in with `key`. */
  async function openForm(page: Page, key: string, root = dashboard.server.url) {
    await signIn(page, root, key);
    await page.goto(`${root}/dashboard/jobs/new`);
    await page.getByRole("heading", { name: "New job", level: 1 }).waitFor(shows);
  }

  it("uploads a file chosen with the picker, shows its progress, and sends the job with upload:<id>", async () => {
    const page = dashboard.page;
    const { key } = await dashboard.server.workspace("pro");
    // A recording with a subtitle stream: the job reads its words from it (no speech-to-text is set up here).
    const recording = subtitledFile(media, 3, ["The large widget costs five dollars."]);
    // The page is browsed through a proxy that holds the upload's answer back, so that its progress shows.
    const proxy = await startHoldingProxy(
      dashboard.server.url,
      (request) => request.method === "POST" && request.url === "/v1/uploads",
    );
    onTestFinished(() => proxy.close());
    await openForm(page, key, proxy.url);

    await page.getByLabel("Files").setInputFiles(recording);
    const bar = page.getByRole("progressbar", { name: "Uploading subtitled.mkv" });
    await bar.waitFor(shows);
    // The server has the whole file and has answered; the page, not yet.
    await expect.poll(() => proxy.held, shows).toBe(1);
    await page.getByText(/^100% of /).waitFor(shows);
    // Until the server has the file, the job waits for it.
    expect(await page.getByRole("button", { name: "Submit job" }).isDisabled()).toBe(true);
    await page.getByRole("status").getByText("Waiting for the files to upload").waitFor(shows);
    await page.getByLabel("Columns").fill("product\nprice");
    await checkPage(page, "job-new-file-uploading");

    proxy.release();
    await page.getByText(/^Uploaded: 0:0[23] long, /).waitFor(shows);
    expect(await bar.count()).toBe(0);
    const listed = await dashboard.server.call("GET", "/v1/uploads", { key });
    expect(listed.body.data).toHaveLength(1);
    const uploadId: string = listed.body.data[0].upload_id;
    expect(uploadId).toMatch(/^upl_/);
    expect(listed.body.data[0].bytes).toBe(readFileSync(recording).length);
    await checkPage(page, "job-new-file-uploaded");

    const submission = page.waitForRequest(
      (request) => request.method() === "POST" && new URL(request.url()).pathname === "/v1",
    );
    await page.getByRole("button", { name: "Submit job" }).click();
    expect((await submission).postDataJSON().videos).toEqual([`upload:${uploadId}`]);
    // The job took the upload: it is the job's video, and no longer a pending upload.
    await page.getByRole("heading", { name: /^Job job_/ }).waitFor(shows);
    await page
      .getByRole("region", { name: "Videos of this job" })
      .locator(`tr[data-video="upload:${uploadId}"]`)
      .waitFor(shows);
    expect((await dashboard.server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
    await checkPage(page, "job-upload-video");
  });

  it("uploads a dropped file, shows why a file that is not media was refused, and deletes a removed upload", async () => {
    const page = dashboard.page;
    const { key } = await dashboard.server.workspace("pro");
    const tone = toneFile(media, 2, "lecture.m4a");
    await openForm(page, key);

    const dropped = [
      { name: basename(tone), type: "audio/mp4", base64: readFileSync(tone).toString("base64") },
      { name: "notes.txt", type: "text/plain", base64: Buffer.from("not a recording").toString("base64") },
    ];
    const transfer = await page.evaluateHandle((files) => {
      // The page's DataTransfer (this runs in the browser; the test's own types have no DOM).
      const { DataTransfer } = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: File): void } };
      };
      const data = new DataTransfer();
      for (const file of files) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], file.name, { type: file.type }));
      }
      return data;
    }, dropped);
    await page.locator(".drop-zone").dispatchEvent("drop", { dataTransfer: transfer });

    await page.getByText(/^Uploaded: 0:0[12] long, /).waitFor(shows);
    const refused = page.locator(".picked-file", { hasText: "notes.txt" }).getByRole("alert");
    await refused.waitFor(shows);
    expect(await refused.innerText()).toMatch(/not audio or video/);
    expect(dashboard.console.refusedStatuses).toContain(415);
    await checkPage(page, "job-new-file-dropped");
    const stored = await dashboard.server.call("GET", "/v1/uploads", { key });
    expect(stored.body.data).toHaveLength(1);
    const filesBefore = readdirSync(store).length;

    await page.getByRole("button", { name: "Remove lecture.m4a" }).click();
    await page.getByRole("button", { name: "Remove notes.txt" }).click();
    expect(await page.locator(".picked-file").count()).toBe(0);
    await expect
      .poll(async () => (await dashboard.server.call("GET", "/v1/uploads", { key })).body.data.length, shows)
      .toBe(0);
    expect(readdirSync(store).length).toBe(filesBefore - 1);
  });
});
