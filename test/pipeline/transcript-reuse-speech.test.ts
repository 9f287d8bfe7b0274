// A kept speech-to-text transcript, reused: the workspace's next job over the same captionless video makes no
// download and no transcription call, and is charged at the captions rate, not the transcription rate (its
// credits used move by that much only); another workspace, and `"reuse": false`, transcribe again. A fake
// yt-dlp "downloads" a generated WAV and a fake OpenAI-compatible server transcribes it. On both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { createFakeAudioYtDlp, type FakeAudioYtDlp, wavBytes } from "../support/fake-audio-ytdlp.js";
import { type FakeModelRequest, messageOf } from "../support/fake-model.js";
import {
  type FakeTranscription,
  startFakeTranscription,
  verboseReply,
  fakeTranscriptionSettings,
} from "../support/fake-transcription.js";
import { newVideoId } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { useWorkBudgets } from "../support/time-budgets.js";
import { workerKeepingTranscripts } from "../support/test-server.js";

// Jobs settle through a worker (and a fake yt-dlp run) on a machine other suites share.
useWorkBudgets();

const missing = ffmpegMissing();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || missing !== null)(
    `kept speech-to-text transcripts on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let service: FakeTranscription;
      let ytDlp: FakeAudioYtDlp;
      /** What the service answers; each upload is told apart by the words it transcribes to. */
      let spoken = "first transcription";

      beforeAll(async () => {
        service = await startFakeTranscription(() =>
          verboseReply([[0, 30, `The blue kettle costs thirty dollars, ${spoken}.`]]),
        );
        ytDlp = createFakeAudioYtDlp();
        // 90 s of audio: two started minutes, 4 credits at the built-in transcription rate, 2 as captions.
        ytDlp.setAudio(wavBytes(90), 90);
        server = await startPipelineServer(dialect.name, {
          config: {
            ytDlpPath: ytDlp.path,
            transcription: fakeTranscriptionSettings(service),
            worker: workerKeepingTranscripts,
          },
          app: { transcription: { attempts: 1, retryBaseMs: 10 }, worker: { retryBaseMs: 10 } },
        });
      });

      afterAll(async () => {
        await server?.close();
        await service?.close();
        ytDlp?.remove();
      });

      /** Runs a job over `videoId`: its settled read, its video's item, what the platform and service saw. */
      async function runJob(key: string, videoId: string, extra: Record<string, unknown> = {}) {
        const [downloads, uploads, prompts] = [
          ytDlp.calls().length,
          service.uploads.length,
          server.model.requests.length,
        ];
        const usedBefore = (await server.call("GET", "/v1/usage", { key })).body.credits.used_this_cycle;
        const submitted = await server.call("POST", "/v1", {
          key,
          body: { videos: [videoId], schema: { columns: ["product", "price"] }, ...extra },
        });
        expect(submitted.status, submitted.text).toBe(202);
        const settled = await server.waitForSettled(key, submitted.body.job_id);
        const videos = await server.call("GET", `/v1/${submitted.body.job_id}/videos`, { key });
        const usedAfter = (await server.call("GET", "/v1/usage", { key })).body.credits.used_this_cycle;
        return {
          settled,
          item: videos.body.data[0],
          downloads: ytDlp.calls().length - downloads,
          uploads: service.uploads.length - uploads,
          creditsUsed: usedAfter - usedBefore,
          prompt: server.model.requests
            .slice(prompts)
            .map((request) => messageOf(request as FakeModelRequest, "user"))
            .join("\n"),
        };
      }

      it("reuses the transcription: no download, no transcription call, no transcription credits", async () => {
        const { key } = await server.workspace();
        const videoId = newVideoId();
        spoken = "first transcription";
        const first = await runJob(key, videoId);
        expect(first.item).toMatchObject({ status: "done", transcript: "transcription", credits_charged: 4 });
        expect([first.downloads, first.uploads, first.creditsUsed]).toEqual([1, 1, 4]);

        // The service would now say something else: a job that transcribed again would send those words.
        spoken = "second transcription";
        const second = await runJob(key, videoId);
        expect(second.item).toMatchObject({ status: "done", transcript: "reused", credits_charged: 2 });
        expect(second.settled.credits_charged).toBe(2);
        expect([second.downloads, second.uploads, second.creditsUsed]).toEqual([0, 0, 2]);
        expect(second.prompt).toContain("first transcription");
        expect(second.prompt).not.toContain("second transcription");
        // The kept transcript keeps the audio's length, which the charge was read from.
        expect(second.settled.results[0].usage.duration_seconds).toBe(90);
      });

      it("transcribes again for another workspace and for a job that says reuse: false", async () => {
        const videoId = newVideoId();
        const owner = await server.workspace();
        spoken = "owner words";
        await runJob(owner.key, videoId);

        spoken = "other workspace words";
        const other = await runJob((await server.workspace()).key, videoId);
        expect(other.item).toMatchObject({ transcript: "transcription", credits_charged: 4 });
        expect([other.downloads, other.uploads, other.creditsUsed]).toEqual([1, 1, 4]);
        expect(other.prompt).toContain("other workspace words");

        spoken = "fresh words";
        const fresh = await runJob(owner.key, videoId, { reuse: false });
        expect(fresh.item).toMatchObject({ transcript: "transcription", credits_charged: 4 });
        expect([fresh.downloads, fresh.uploads, fresh.creditsUsed]).toEqual([1, 1, 4]);
        expect(fresh.prompt).toContain("fresh words");
      });

      it('keeps a transcription apart from captions: a job with transcribe "never" does not reuse it', async () => {
        const { key } = await server.workspace();
        const videoId = newVideoId();
        await runJob(key, videoId);
        const never = await runJob(key, videoId, { transcribe: "never" });
        expect(never.item.status).toBe("failed");
        expect(never.item.error.code).toBe("no_captions");
        expect([never.downloads, never.uploads, never.creditsUsed]).toEqual([0, 0, 0]);
      });
    },
  );
}
