// Speech-to-text through the whole pipeline (issue 29): a video without captions transcribed from its audio
// (a fake yt-dlp "downloading" a generated WAV, a fake OpenAI-compatible transcription server), settled with
// rows, timed sources and the transcription price; `never`, `always`, a failing endpoint, a cancel in flight,
// and no audio left in the temporary folder.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { createFakeAudioYtDlp, type FakeAudioYtDlp, wavBytes } from "../support/fake-audio-ytdlp.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
  fakeTranscriptionSettings,
} from "../support/fake-transcription.js";
import { promptLines, spannedRowsReply } from "../support/fake-model.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { waitUntil } from "../support/waiting.js";
import { guardedProtocols } from "../../src/transcription/audio-download.js";

const missing = ffmpegMissing();
if (missing !== null) console.warn(`Skipping the speech-to-text pipeline tests: ${missing}.`);

/** The pid of a process that has ended, for a folder a crashed worker left. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid as number;
}

const spoken: [number, number, string][] = [
  [0, 4.5, "Welcome to the show."],
  [4.5, 9.25, "The blue kettle costs thirty dollars."],
  [9.25, 14, "Thanks for watching."],
];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || missing !== null)(
    `speech-to-text on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let service: FakeTranscription;
      let ytDlp: FakeAudioYtDlp;
      let tempRoot: string;
      let leftover: string;
      let key: string;

      beforeAll(async () => {
        service = await startFakeTranscription(() => verboseReply(spoken));
        ytDlp = createFakeAudioYtDlp();
        // 90 s of audio, as the page says: the charge follows what the audio holds (see media-bounds tests).
        ytDlp.setAudio(wavBytes(90), 90);
        tempRoot = mkdtempSync(join(tmpdir(), "vidrows-stt-root-"));
        leftover = join(tempRoot, `vidrows-audio-${deadPid()}-left`);
        mkdirSync(leftover);
        server = await startPipelineServer(dialect.name, {
          // The row drawn from the prompt's line that holds the kettle, so its source has that line's times.
          respond: (request) => {
            const line = promptLines(request).find(({ text }) => text.includes("kettle"));
            return spannedRowsReply(
              line
                ? [{ row: { product: "kettle", price: 30 }, first_line: line.number, last_line: line.number }]
                : [],
            );
          },
          config: {
            ytDlpPath: ytDlp.path,
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

      it("removes at start-up the audio folders of workers that died", async () => {
        await waitUntil(
          "the leftover folder to be swept",
          () => !readdirSync(tempRoot).some((name) => join(tempRoot, name) === leftover),
          5000,
        );
      });

      it("transcribes a captionless video: rows, timed sources, the transcription price", async () => {
        const before = service.uploads.length;
        const job = await runJob(["sttNoCapt01"]);
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.rows.results).toEqual([{ product: "kettle", price: 30 }]);
        // The source is the prompt line holding the kettle's segment (4.5 to 9.25 s), a line of at most 30 s,
        // starting in that segment no later than where its words, evenly spread, put `kettle` (3rd of 6).
        const source = video.rows.sources[0];
        expect(source.start_seconds).toBeGreaterThanOrEqual(4.5);
        expect(source.start_seconds).toBeLessThanOrEqual(4.5 + (4.75 * 2) / 6);
        expect(source.end_seconds).toBeGreaterThanOrEqual(9.25);
        expect(source.end_seconds - source.start_seconds).toBeLessThanOrEqual(30);
        expect(source.quote).toContain("The blue kettle costs thirty dollars.");
        expect(source.url).toContain("sttNoCapt01");
        expect(source.url).toContain(`t=${Math.floor(source.start_seconds)}s`);
        // 90 s: two started minutes at the built-in transcription rate of 2.
        expect(video.usage.credits_charged).toBe(4);
        const upload = service.uploads[before];
        expect(upload?.authorization).toBe("Bearer stt-key");
        expect(upload?.fields).toMatchObject({
          model: ["fake-whisper"],
          response_format: ["verbose_json"],
          "timestamp_granularities[]": ["segment"],
        });
        expect(upload?.fileBytes).toBe(wavBytes(90).length);
        const download = ytDlp.calls().at(-1) ?? [];
        expect(download).toContain("https://www.youtube.com/watch?v=sttNoCapt01");
        // The smallest audio-only format, else the smallest with audio, of the protocols the guard sees.
        expect(download[download.indexOf("-f") + 1]).toBe(`wa${guardedProtocols}/w${guardedProtocols}`);
      });

      it('keeps no_captions with transcribe: "never", sending nothing to the service', async () => {
        const before = service.uploads.length;
        const job = await runJob(["sttNever001"], { transcribe: "never" });
        expect(job.results[0].error.code).toBe("no_captions");
        expect(service.uploads.length).toBe(before);
      });

      it('transcribes with "always" even when the video has captions', async () => {
        server.addCaptions("sttAlways01", 60, ["A caption about a red bicycle."]);
        const before = service.uploads.length;
        const job = await runJob(["sttAlways01"], { transcribe: "always" });
        expect(job.results[0].status).toBe("done");
        expect(job.results[0].rows.results).toEqual([{ product: "kettle", price: 30 }]);
        expect(service.uploads.length).toBe(before + 1);
        // Without `always`, the same video is read from its captions and charged one credit a minute.
        const captioned = await runJob(["sttAlways01"]);
        expect(captioned.results[0].rows.results).toEqual([]);
        expect(captioned.results[0].usage.credits_charged).toBe(1);
        expect(service.uploads.length).toBe(before + 1);
      });

      it("fails the video with transcription_failed, retryable, when the endpoint keeps failing", async () => {
        service.respondWith(() => ({ status: 503, json: { error: { message: "overloaded" } } }));
        try {
          const before = service.uploads.length;
          const job = await runJob(["sttFailing1"]);
          expect(job.results[0].error).toMatchObject({ code: "transcription_failed", retryable: true });
          expect(job.results[0].credits_charged).toBe(0);
          // Tried again once (attempts: 2) before giving up.
          expect(service.uploads.length).toBe(before + 2);
        } finally {
          service.respondWith(() => verboseReply(spoken));
        }
      });

      it("gives one span over the audio when the server answers plain text without times", async () => {
        service.respondWith(() => ({ json: { text: "The blue kettle costs thirty dollars." } }));
        try {
          const job = await runJob(["sttPlainTx1"]);
          const video = job.results[0];
          expect(video.status).toBe("done");
          expect(video.rows.sources[0]).toMatchObject({ start_seconds: 0, end_seconds: 90 });
        } finally {
          service.respondWith(() => verboseReply(spoken));
        }
      });

      it("aborts a transcription in flight when the job is cancelled", async () => {
        service.respondWith(() => ({ hang: true }));
        try {
          const submitted = await server.call("POST", "/v1", {
            key,
            body: { videos: ["sttCancel01"], schema: { columns: ["product"] } },
          });
          const upload = await waitUntil(
            "the upload to reach the service",
            () => service.uploads.find((u) => u.outcome === "pending"),
            10_000,
          );
          const cancel = await server.call("POST", `/v1/${submitted.body.job_id}/cancel`, { key });
          expect(cancel.status).toBe(200);
          await waitUntil("the upload to be abandoned", () => upload.outcome === "abandoned", 10_000);
          const job = await server.waitForSettled(key, submitted.body.job_id);
          expect(job.results[0].error.code).toBe("cancelled");
        } finally {
          service.respondWith(() => verboseReply(spoken));
        }
      });

      it("leaves no audio in the temporary folder", () => {
        expect(readdirSync(tempRoot)).toEqual([]);
      });

      it("refuses a transcribe value it does not know, naming the field", async () => {
        const answer = await server.call("POST", "/v1", {
          key,
          body: { videos: ["sttBadMode1"], schema: { columns: ["a"] }, transcribe: "sometimes" },
        });
        expect(answer.status).toBe(400);
        expect(answer.body.error.param).toBe("transcribe");
      });
    },
  );
}

describe.skipIf(dialects[0]?.skipReason !== null)('transcribe: "always" without speech-to-text', () => {
  let server: PipelineServer;
  beforeAll(async () => {
    server = await startPipelineServer("sqlite");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("is refused at submission, naming the field", async () => {
    const { key } = await server.workspace();
    const answer = await server.call("POST", "/v1", {
      key,
      body: { videos: ["sttNoSetup1"], schema: { columns: ["a"] }, transcribe: "always" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", param: "transcribe" });
  });
});
