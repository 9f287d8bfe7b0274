// Pages that lie about their length, through the whole pipeline on both databases: a page whose JSON-LD says
// ten hours around a 3-second MP3, captions with an empty or lone cue at 10:00:00, audio longer than its
// page says, a 60.0-second MP3 cut into pieces; and the bounds (the plan's longest video, the audio's bytes,
// what the credits pay for, characters a minute), each failing the video free with a message naming it.
// Media are made by Debian's ffmpeg; yt-dlp is a fake printing recorded-shape info.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlanTable } from "../../src/domain/plans.js";
import { findProgram } from "../../src/platforms/executables.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { wavBytes } from "../support/fake-audio-ytdlp.js";
import {
  createFakePlatformYtDlp,
  type FakePlatformYtDlp,
  type RecordedPage,
} from "../support/fake-platform-ytdlp.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
} from "../support/fake-transcription.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { testPlans } from "../support/test-server.js";

let ffmpeg: string | null = null;
try {
  ffmpeg = findProgram("ffmpeg", undefined, "This test");
} catch {
  console.warn(
    "Skipping the processed-length pipeline tests: ffmpeg is not installed (apt-get install -y ffmpeg).",
  );
}

/** `seconds` of a tone as MP3 at `kbps`, made by ffmpeg. */
function mp3(folder: string, name: string, seconds: number, kbps = 32): string {
  const path = join(folder, name);
  const made = spawnSync(ffmpeg as string, [
    ...["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi"],
    ...["-i", `sine=frequency=440:duration=${seconds}`, "-c:a", "libmp3lame", "-b:a", `${kbps}k`, path],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg: ${made.stderr.toString()}`);
  return path;
}

const stamp = (seconds: number) => new Date(seconds * 1000).toISOString().slice(11, 23);
const vtt = (cues: [number, number, string][]) =>
  `WEBVTT\n\n${cues.map(([from, to, text]) => `${stamp(from)} --> ${stamp(to)}\n${text}\n`).join("\n")}`;

/** A page of another host as yt-dlp's generic extractor prints it, claiming `duration` (JSON-LD's). */
function page(
  id: string,
  duration: number | null,
  extra: Partial<RecordedPage> = {},
  captions?: string,
): RecordedPage {
  const url = `https://pages.example.org/${id}`;
  const track = `https://pages.example.org/${id}.en.vtt`;
  return {
    info: {
      id,
      title: id,
      extractor: "generic",
      extractor_key: "Generic",
      webpage_url: url,
      ...(duration === null ? {} : { duration }),
      subtitles: captions === undefined ? {} : { en: [{ url: track, ext: "vtt" }] },
    },
    tracks: captions === undefined ? {} : { [track]: captions },
    ...extra,
  };
}

const urlOf = (id: string) => `https://pages.example.org/${id}`;
const tenHours = 36_000;

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || ffmpeg === null)(
    `charges from what was processed, on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let service: FakeTranscription;
      let ytDlp: FakePlatformYtDlp;
      let media: string;
      let tempRoot: string;
      let key: string;
      let longMp3Bytes: number;

      beforeAll(async () => {
        media = mkdtempSync(join(tmpdir(), "vidrows-lying-media-"));
        tempRoot = mkdtempSync(join(tmpdir(), "vidrows-lying-root-"));
        const three = mp3(media, "three.mp3", 3);
        const sixty = mp3(media, "sixty.mp3", 60, 64);
        const ninety = mp3(media, "ninety.mp3", 90);
        longMp3Bytes = statSync(sixty).size;
        const big = join(media, "big.wav");
        writeFileSync(big, wavBytes(130));
        service = await startFakeTranscription((upload) =>
          verboseReply([[0.5, 2, `The blue kettle costs thirty dollars, ${upload.fileBytes} bytes.`]]),
        );
        ytDlp = createFakePlatformYtDlp();
        ytDlp.setAudio(wavBytes(1));
        const words = "The blue kettle costs thirty dollars.";
        ytDlp.setPages({
          [urlOf("jsonld-ten-hours")]: page("jsonld-ten-hours", tenHours, { audio: three }),
          [urlOf("claims-five")]: page("claims-five", 5, { audio: sixty }),
          [urlOf("sixty-in-pieces")]: page("sixty-in-pieces", 60, { audio: sixty }),
          [urlOf("no-claim-ninety")]: page("no-claim-ninety", null, { audio: ninety }),
          [urlOf("big-audio")]: page("big-audio", 20, { audio: big }),
          [urlOf("empty-cue-at-ten-hours")]: page(
            "empty-cue-at-ten-hours",
            tenHours,
            {},
            vtt([
              [1, 4, words],
              [tenHours - 1, tenHours, " "],
            ]),
          ),
          [urlOf("lone-cue-at-ten-hours")]: page(
            "lone-cue-at-ten-hours",
            tenHours,
            {},
            vtt([[tenHours - 5, tenHours, words]]),
          ),
          [urlOf("ninety-seconds-of-words")]: page(
            "ninety-seconds-of-words",
            90,
            {},
            vtt([
              [0, 45, words],
              [45, 90, words],
            ]),
          ),
          [urlOf("dense-captions")]: page(
            "dense-captions",
            null,
            {},
            vtt(
              Array.from({ length: 300 }, (_, i) => [
                i * 0.1,
                i * 0.1 + 0.1,
                `${i} ${words} ${"x".repeat(60)}`,
              ]),
            ),
          ),
        });
        const plans = parsePlanTable(
          { ...testPlans, tiny: { ...testPlans.pro, name: "Tiny", longest_video_minutes: 1 } },
          "test plans",
        );
        server = await startPipelineServer(dialect.name, {
          config: {
            plans,
            ytDlpPath: ytDlp.path,
            otherPlatforms: "any",
            worker: {
              videoLeaseSeconds: 120,
              videosInFlight: 8,
              modelConcurrency: 8,
              shutdownGraceSeconds: 10,
              // 720 minutes at 8 kbit/s: 43 MB for the others; the tiny plan's one minute: 1.1 MB.
              audioMaxKilobitsPerSecond: 8,
            },
            transcription: {
              baseUrl: service.url,
              apiKey: "stt-key",
              model: "fake-whisper",
              // The 60 s MP3 at 64 kbit/s (480 KB) goes in pieces; the 3 s one whole.
              maxUploadBytes: 200_000,
              requestTimeoutSeconds: 30,
            },
          },
          app: { transcription: { tempRoot, attempts: 2, retryBaseMs: 10 }, worker: { retryBaseMs: 10 } },
        });
        ({ key } = await server.workspace());
      });

      afterAll(async () => {
        await server?.close();
        await service?.close();
        ytDlp?.remove();
        for (const folder of [media, tempRoot]) if (folder) rmSync(folder, { recursive: true, force: true });
      });

      async function runJob(videos: string[], apiKey = key, extra: Record<string, unknown> = {}) {
        const submitted = await server.call("POST", "/v1", {
          key: apiKey,
          body: { videos, schema: { columns: ["product", "price"] }, ...extra },
        });
        expect(submitted.status, submitted.text).toBe(202);
        return server.waitForSettled(apiKey, submitted.body.job_id);
      }

      const downloads = () => ytDlp.calls().filter((args) => args.includes("-f"));

      it("charges a page saying PT10H around a 3 s MP3 for 3 s: 2 credits, not 1,200", async () => {
        const job = await runJob([urlOf("jsonld-ten-hours")]);
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.usage).toMatchObject({ duration_seconds: 3, credits_charged: 2 });
        expect(job.credits_charged).toBe(2);
      });

      it("charges captions the span of their words, not an empty cue a page placed at 10:00:00", async () => {
        const job = await runJob([urlOf("empty-cue-at-ten-hours")]);
        expect(job.results[0].usage).toMatchObject({ duration_seconds: 3, credits_charged: 1 });
      });

      it("charges a lone cue at 10:00:00 its own length, not the ten hours before it", async () => {
        const job = await runJob([urlOf("lone-cue-at-ten-hours")]);
        expect(job.results[0].usage).toMatchObject({ duration_seconds: 5, credits_charged: 1 });
      });

      it("sends and charges only the 5 s a page claims of the 60 s its audio holds", async () => {
        const before = service.uploads.length;
        const job = await runJob([urlOf("claims-five")]);
        expect(job.results[0].usage).toMatchObject({ duration_seconds: 5, credits_charged: 2 });
        const sent = service.uploads.slice(before);
        expect(sent).toHaveLength(1);
        // About 5 s of 64 kbit/s: a tenth of the file, give or take a frame.
        expect(sent[0]?.fileBytes).toBeLessThan(longMp3Bytes / 5);
      });

      it("charges a 60.0 s MP3 cut into pieces one started minute, not two", async () => {
        const before = service.uploads.length;
        const job = await runJob([urlOf("sixty-in-pieces")]);
        expect(service.uploads.length - before).toBeGreaterThanOrEqual(3);
        expect(job.results[0].usage).toMatchObject({ duration_seconds: 60, credits_charged: 2 });
      });

      it("fails audio past the plan's longest video video_unavailable, naming it, free", async () => {
        const tiny = await server.workspace("tiny");
        const job = await runJob([urlOf("no-claim-ninety")], tiny.key);
        expect(job.results[0]).toMatchObject({
          status: "failed",
          credits_charged: 0,
          error: { code: "video_unavailable", retryable: false },
        });
        expect(job.results[0].error.message).toContain("the plan's longest video (1 minute)");
      });

      it("fails audio past its byte bound video_unavailable, naming the bound, free", async () => {
        const tiny = await server.workspace("tiny");
        const job = await runJob([urlOf("big-audio")], tiny.key);
        expect(job.results[0]).toMatchObject({ credits_charged: 0, error: { code: "video_unavailable" } });
        expect(job.results[0].error.message).toContain("larger than 1.1 MB");
        expect(job.results[0].error.message).toContain("8 kbit/s");
        expect(readdirSync(tempRoot)).toEqual([]);
      });

      it("downloads nothing for a workspace whose balance pays for not one transcribed minute", async () => {
        const poor = await server.workspace("pro");
        await server.app.store.db
          .updateTable("workspaces")
          .set({ balance: 1 })
          .where("id", "=", poor.workspaceId)
          .execute();
        const before = downloads().length;
        const job = await runJob([urlOf("jsonld-ten-hours")], poor.key);
        expect(job.results[0]).toMatchObject({
          credits_charged: 0,
          error: { code: "insufficient_credits", retryable: true },
        });
        expect(downloads().length).toBe(before);
      });

      it("fails captions denser than any speech before any model request, free", async () => {
        const before = server.model.requestCount;
        const job = await runJob([urlOf("dense-captions")]);
        expect(job.results[0]).toMatchObject({ credits_charged: 0, error: { code: "video_unavailable" } });
        expect(job.results[0].error.message).toContain("VIDROWS_TRANSCRIPT_MAX_CHARS_PER_MINUTE");
        expect(server.model.requestCount).toBe(before);
      });

      it("refuses before the model a video whose words the hard cap cannot pay for", async () => {
        const capped = await server.workspace("pro");
        const patched = await server.call("PATCH", "/v1/usage", { key: capped.key, body: { hard_cap: 1 } });
        expect(patched.status).toBe(200);
        const before = server.model.requestCount;
        // 90 s of words cost 2 credits; the cap leaves 1: the words never reach the model.
        const job = await runJob([urlOf("ninety-seconds-of-words")], capped.key);
        expect(job.results[0]).toMatchObject({
          credits_charged: 0,
          error: { code: "hard_cap_reached", retryable: true },
        });
        expect(server.model.requestCount).toBe(before);
      });
    },
  );
}
