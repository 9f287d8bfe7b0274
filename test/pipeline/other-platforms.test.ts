// Videos of other platforms through the whole pipeline (issue 29, point 2), read by a fake yt-dlp that prints
// recorded-shape output: a Vimeo page with captions (rows from the chosen track, sources opening at the
// moment with #t=), a TikTok page without (transcribed by the fake transcription server; sources are the
// plain page), a media file on another host (named generic:<id> once read, #t= media fragments), and a page
// nothing reads (video_unavailable). Each is found by a search on its video_id's prefix, and the CLI's CSV
// carries their video_ids and source URLs.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unresolvedVideoId } from "../../src/domain/submitted-videos.js";
import { findProgram } from "../../src/platforms/executables.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { wavBytes } from "../support/fake-audio-ytdlp.js";
import { promptLines, spannedRowsReply } from "../support/fake-model.js";
import {
  createFakePlatformYtDlp,
  type FakePlatformYtDlp,
  recordedPage,
} from "../support/fake-platform-ytdlp.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
  fakeTranscriptionSettings,
} from "../support/fake-transcription.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { waitUntil } from "../support/waiting.js";
import { runCli } from "../../clients/typescript/test/cli-support.js";
import { guardedProtocols } from "../../src/transcription/audio-download.js";

const vimeoUrl = "https://vimeo.com/76979871";
const tiktokUrl = "https://www.tiktok.com/@scout2015/video/6718335390845095173";
/** What yt-dlp is handed for it: the page rebuilt from the id the submission read. */
const tiktokHandedUrl = "https://www.tiktok.com/@_/video/6718335390845095173";
const mediaUrl = "https://media.example.org/talks/keynote.mp4";
const unreadableUrl = "https://www.example.com/about-us";

const spoken: [number, number, string][] = [
  [0, 4.5, "Hi everyone, quick one today."],
  [4.5, 9.25, "The blue kettle costs thirty dollars."],
  [9.25, 14, "Follow for more."],
];

// What the model finds: a row from whichever prompt line names a thing with a price, from that line.
const pricedThings: [RegExp, Record<string, unknown>][] = [
  [/crane/, { product: "camera crane", price: 40 }],
  [/Kamerakran/, { product: "Kamerakran", price: 40 }],
  [/kettle/, { product: "kettle", price: 30 }],
];

let ffmpegMissing: string | null = null;
try {
  findProgram("ffmpeg", undefined, "This test");
} catch {
  ffmpegMissing = "ffmpeg is not installed (apt-get install -y ffmpeg)";
  console.warn(`Skipping the other platforms' pipeline tests: ${ffmpegMissing}.`);
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || ffmpegMissing !== null)(
    `videos of other platforms on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let service: FakeTranscription;
      let ytDlp: FakePlatformYtDlp;
      let tempRoot: string;
      let key: string;

      beforeAll(async () => {
        service = await startFakeTranscription(() => verboseReply(spoken));
        ytDlp = createFakePlatformYtDlp();
        // 14 s of audio, as long as the TikTok page says and the transcription's segments run.
        ytDlp.setAudio(wavBytes(14));
        ytDlp.setPages({
          [vimeoUrl]: recordedPage("vimeo-76979871.info.json", {
            en: "vimeo-76979871.en.vtt",
            de: "vimeo-76979871.de.vtt",
          }),
          // Read at the address rebuilt from the id; its audio downloaded from the page yt-dlp named.
          [tiktokHandedUrl]: recordedPage("tiktok-6718335390845095173.info.json"),
          [tiktokUrl]: recordedPage("tiktok-6718335390845095173.info.json"),
          [mediaUrl]: recordedPage("generic-keynote.info.json"),
        });
        tempRoot = mkdtempSync(join(tmpdir(), "vidrows-platforms-root-"));
        server = await startPipelineServer(dialect.name, {
          respond: (request) => {
            for (const line of promptLines(request)) {
              const thing = pricedThings.find(([pattern]) => pattern.test(line.text));
              if (thing) {
                return spannedRowsReply([{ row: thing[1], first_line: line.number, last_line: line.number }]);
              }
            }
            return spannedRowsReply([]);
          },
          config: {
            ytDlpPath: ytDlp.path,
            otherPlatforms: "any",
            transcription: fakeTranscriptionSettings(service),
          },
          app: { transcription: { tempRoot, attempts: 2, retryBaseMs: 10 }, worker: { retryBaseMs: 10 } },
        });
        ({ key } = await server.workspace());
      });

      afterAll(async () => {
        await server?.close();
        await service?.close();
        ytDlp?.remove();
        if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
      });

      async function runJob(videos: string[], extra: Record<string, unknown> = {}) {
        const submitted = await server.call("POST", "/v1", {
          key,
          body: { videos, schema: { columns: ["product", "price"] }, ...extra },
        });
        expect(submitted.status, submitted.text).toBe(202);
        return server.waitForSettled(key, submitted.body.job_id);
      }

      const searchFinds = async (prefix: string) => {
        const found = await server.call("GET", `/v1?search=${encodeURIComponent(prefix)}`, { key });
        expect(found.status, found.text).toBe(200);
        return found.body.data.map((job: { job_id: string }) => job.job_id);
      };

      it("reads a Vimeo video's captions: vimeo:<id>, rows, sources that open at the moment with #t=", async () => {
        const uploads = service.uploads.length;
        const job = await runJob([vimeoUrl], { language: "en" });
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.video_id).toBe("vimeo:76979871");
        expect(video.rows.results).toEqual([{ product: "camera crane", price: 40 }]);
        const source = video.rows.sources[0];
        // The crane's cue is 14.25 to 21 s, inside its prompt line; `camera` is its 8th word of 15, so the
        // moment is in the cue, no later than where its words, evenly spread, put `camera` (17.4 s).
        expect(source.start_seconds).toBeGreaterThanOrEqual(14.25);
        expect(source.start_seconds).toBeLessThanOrEqual(14.25 + (6.75 * 7) / 15);
        expect(source.end_seconds).toBeGreaterThanOrEqual(21);
        expect(source.quote).toContain("red camera crane");
        expect(source.url).toBe(`https://vimeo.com/76979871#t=${Math.floor(source.start_seconds)}s`);
        // From captions, so no transcription, and charged the span of their words (0.5 to 30 s), not the 62 s
        // the page claims: a credit for the started minute.
        expect(service.uploads.length).toBe(uploads);
        expect(video.usage).toMatchObject({ credits_charged: 1, duration_seconds: 30 });
        // yt-dlp read the page as submitted, then wrote the English track asked for.
        const [infoRun, subtitleRun] = ytDlp.calls().slice(-2);
        expect(infoRun).toContain("--dump-single-json");
        expect(infoRun?.at(-1)).toBe(vimeoUrl);
        expect(subtitleRun?.join(" ")).toContain("--write-subs --sub-langs en --sub-format vtt");
        expect(await searchFinds("vimeo:")).toContain(job.job_id);
        expect(await searchFinds("vimeo:7697")).toContain(job.job_id);
      });

      it("takes the first written track when neither the job nor the page names a language", async () => {
        // yt-dlp says nothing of the language spoken on Vimeo, and lists the tracks de, en, es.
        const job = await runJob([vimeoUrl]);
        expect(job.results[0].rows.results).toEqual([{ product: "Kamerakran", price: 40 }]);
        expect(job.results[0].rows.sources[0].quote).toContain("roten Kamerakran");
      });

      it("fails no_captions naming the languages there are when none is in the job's", async () => {
        const job = await runJob([vimeoUrl], { language: "ja", transcribe: "never" });
        expect(job.results[0].error).toMatchObject({ code: "no_captions", retryable: false });
        expect(job.results[0].error.message).toContain('no captions in "ja" (it has de, en, es)');
      });

      it("transcribes a TikTok video without captions: tiktok:<id>, the plain page as its sources' URL", async () => {
        const uploads = service.uploads.length;
        const job = await runJob([tiktokUrl]);
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.video_id).toBe("tiktok:6718335390845095173");
        expect(video.rows.results).toEqual([{ product: "kettle", price: 30 }]);
        expect(video.rows.sources[0].quote).toContain("The blue kettle costs thirty dollars.");
        // TikTok has no link to a moment.
        expect(video.rows.sources[0].url).toBe(tiktokUrl);
        // 14 s: one started minute at the transcription rate of 2.
        expect(video.usage).toMatchObject({ credits_charged: 2, duration_seconds: 14 });
        expect(service.uploads.length).toBe(uploads + 1);
        // The page read at the address rebuilt from the id, never the submitted string; its audio from the
        // page yt-dlp named.
        expect(ytDlp.calls().at(-2)?.at(-1)).toBe(tiktokHandedUrl);
        const download = ytDlp.calls().at(-1) ?? [];
        expect(download[download.indexOf("-f") + 1]).toBe(`wa${guardedProtocols}/w${guardedProtocols}`);
        expect(download.at(-1)).toBe(tiktokUrl);
        expect(await searchFinds("tiktok:")).toContain(job.job_id);
      });

      it('transcribes a Vimeo video that has captions when the job says transcribe: "always", never asking for them', async () => {
        const uploads = service.uploads.length;
        const calls = ytDlp.calls().length;
        const job = await runJob([vimeoUrl], { transcribe: "always", language: "en" });
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.video_id).toBe("vimeo:76979871");
        expect(video.rows.results).toEqual([{ product: "kettle", price: 30 }]);
        expect(service.uploads.length).toBe(uploads + 1);
        // The page read for the video it holds, then its audio: no run writes a caption track.
        const runs = ytDlp.calls().slice(calls);
        expect(runs).toHaveLength(2);
        expect(runs.some((args) => args.includes("--write-subs"))).toBe(false);
      });

      it('keeps no_captions for the TikTok video with transcribe: "never"', async () => {
        const uploads = service.uploads.length;
        const job = await runJob([tiktokUrl], { transcribe: "never" });
        expect(job.results[0]).toMatchObject({
          video_id: "tiktok:6718335390845095173",
          status: "failed",
          error: { code: "no_captions", retryable: false },
        });
        expect(service.uploads.length).toBe(uploads);
      });

      it("names a page of another host as yt-dlp does once read: generic:<id>, #t= on the media file", async () => {
        const submitted = await server.call("POST", "/v1", {
          key,
          body: { videos: [mediaUrl], schema: { columns: ["product", "price"] } },
        });
        expect(submitted.status, submitted.text).toBe(202);
        const job = await server.waitForSettled(key, submitted.body.job_id);
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.video_id).toBe("generic:keynote");
        expect(video.rows.sources[0].url).toBe(
          `${mediaUrl}#t=${Math.floor(video.rows.sources[0].start_seconds)}`,
        );
        const list = await server.call("GET", `/v1/${job.job_id}/videos`, { key });
        expect(list.body.data[0]).toMatchObject({ video_id: "generic:keynote", status: "done" });
        expect(await searchFinds("generic:key")).toContain(job.job_id);
        expect(await searchFinds(unresolvedVideoId(new URL(mediaUrl)))).not.toContain(job.job_id);
      });

      it("fails a page nothing reads with video_unavailable, not retryable, never charged", async () => {
        const job = await runJob([unreadableUrl, vimeoUrl]);
        expect(job.results[0]).toMatchObject({
          video_id: unresolvedVideoId(new URL(unreadableUrl)),
          status: "failed",
          error: { code: "video_unavailable", retryable: false },
          credits_charged: 0,
        });
        expect(job.results[0].error.message).toContain("Unsupported URL");
        expect(job.results[1].status).toBe("done");
      });

      it("keeps the id a page was read under when its job is cancelled while the audio is transcribed", async () => {
        const uploads = service.uploads.length;
        service.respondWith(() => ({ hang: true }));
        try {
          const submitted = await server.call("POST", "/v1", {
            key,
            body: { videos: [mediaUrl], schema: { columns: ["product", "price"] }, transcribe: "always" },
          });
          expect(submitted.status, submitted.text).toBe(202);
          const jobId = submitted.body.job_id as string;
          // The page is read (and named) before its audio goes to the transcription endpoint.
          await waitUntil(
            "the audio to reach the transcription endpoint",
            () => service.uploads.length > uploads,
            20_000,
          );
          const cancelled = await server.call("POST", `/v1/${jobId}/cancel`, { key });
          expect(cancelled.status, cancelled.text).toBe(200);
          const job = await server.waitForSettled(key, jobId);
          expect(job.results[0]).toMatchObject({
            video_id: "generic:keynote",
            status: "failed",
            error: { code: "cancelled" },
          });
          expect(await searchFinds("generic:key")).toContain(jobId);
        } finally {
          service.respondWith(() => verboseReply(spoken));
        }
      });

      it("hands the CLI each row with its video_id and source URL, as CSV", async () => {
        const submitted = await server.call("POST", "/v1", {
          key,
          body: { videos: [vimeoUrl, tiktokUrl], schema: { columns: ["product", "price"] }, language: "en" },
        });
        expect(submitted.status, submitted.text).toBe(202);
        const jobId = submitted.body.job_id as string;
        // Settled, by the list of its videos: never by reading the job, which would take its rows.
        await waitUntil(
          `job ${jobId} to settle`,
          async () => {
            const videos = (await server.call("GET", `/v1/${jobId}/videos`, { key })).body.data;
            return videos.every((video: { status: string }) => video.status === "done") || undefined;
          },
          20_000,
        );
        const csv = await runCli(server.url, key, ["jobs", "rows", jobId, "--format", "csv", "--sources"]);
        expect(csv.code, csv.stderr).toBe(0);
        const lines = csv.stdout.trim().split("\r\n");
        expect(lines[0]).toBe("video_id,product,price,source_start_seconds,source_url,source_quote");
        expect(lines[1]).toMatch(
          /^vimeo:76979871,camera crane,40,(\d+)(?:\.\d+)?,https:\/\/vimeo\.com\/76979871#t=\1s,"[^"]*red camera crane/,
        );
        expect(lines[2]).toMatch(
          /^tiktok:6718335390845095173,kettle,30,\d+(\.\d+)?,https:\/\/www\.tiktok\.com\/@scout2015\/video\/6718335390845095173,/,
        );
      });

      it("leaves nothing in the temporary folder", () => {
        expect(readdirSync(tempRoot)).toEqual([]);
      });
    },
  );
}
