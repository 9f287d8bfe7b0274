// Uploaded files turned into rows over real HTTP, on both databases, with real media made by ffmpeg, the fake
// model and a fake transcription endpoint: a Matroska file's subtitle stream read as captions, a tone's audio
// sent to speech-to-text, billed from the measured length; and each file, its row and its words gone from
// the upload folder and the database's files once its video settles, done or failed.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetGraceMs } from "../../src/jobs/handover-delivery.js";
import { databaseFiles, markersIn } from "../support/database-files.js";
import { dialects, dialectTitle } from "../support/databases.js";
import type { FakeTranscription } from "../support/fake-transcription.js";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { subtitledFile, toneFile } from "../support/media-files.js";
import type { PipelineServer } from "../support/pipeline.js";
import { startUploadPipeline, type UploadPipeline } from "../support/upload-pipeline.js";
import { waitFor } from "../support/jobs-api.js";
import { workerKeepingTranscripts } from "../support/test-server.js";

const missing = ffmpegMissing();
const media = mkdtempSync(join(tmpdir(), "vidrows-media-"));
/** In the subtitles only: found in the database's files, it would mean the words were kept. */
const marker = `subtitlemarker${randomBytes(6).toString("hex")}`;
const tone = missing === null ? readFileSync(toneFile(media, 70)) : Buffer.alloc(0);
const subtitled =
  missing === null
    ? readFileSync(
        subtitledFile(media, 8, ["Welcome to the call.", `The blue kettle costs thirty dollars ${marker}.`]),
      )
    : Buffer.alloc(0);
afterAll(() => rmSync(media, { recursive: true, force: true }));

const schema = { columns: ["product", "price"] };

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || missing !== null)(
    `uploads read by jobs on ${dialectTitle(dialect)}`,
    () => {
      let pipeline: UploadPipeline;
      let server: PipelineServer;
      let service: FakeTranscription;
      let folder: string;
      let key: string;

      beforeAll(async () => {
        pipeline = await startUploadPipeline(dialect.name, {
          heard: [[0, 60, "The blue kettle costs thirty dollars."]],
          // Transcripts are kept for reuse on this server: an upload's must never be.
          worker: workerKeepingTranscripts,
        });
        ({ server, transcription: service, folder, key } = pipeline);
      });
      afterAll(async () => {
        await pipeline?.close();
      });

      async function upload(body: Buffer): Promise<{ upload_id: string; duration_seconds: number }> {
        const response = await fetch(`${server.url}/v1/uploads`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/octet-stream" },
          body,
        });
        expect(response.status).toBe(201);
        return (await response.json()) as { upload_id: string; duration_seconds: number };
      }

      async function runJob(uploadId: string, extra: Record<string, unknown> = {}) {
        const submitted = await server.call("POST", "/v1", {
          key,
          body: { videos: [`upload:${uploadId}`], schema, ...extra },
        });
        expect(submitted.status, submitted.text).toBe(202);
        return server.waitForSettled(key, submitted.body.job_id);
      }

      async function gone(uploadId: string) {
        // The worker removes the file right after settling, which a read may come before.
        await waitFor("the upload's file to go", async () =>
          readdirSync(folder).includes(uploadId) ? undefined : true,
        );
        const rows = await server.app.store.db
          .selectFrom("uploads")
          .select("id")
          .where("id", "=", uploadId)
          .execute();
        expect(rows).toEqual([]);
      }

      it("reads a file's subtitle stream as its captions, sends nothing to speech-to-text, and deletes the file", async () => {
        const before = service.uploads.length;
        const { upload_id: id } = await upload(subtitled);
        const job = await runJob(id);
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.video_id).toBe(`upload:${id}`);
        expect(video.rows.results).toEqual([{ product: "kettle", price: 30 }]);
        expect(video.rows.sources[0].quote).toContain("The blue kettle costs thirty dollars");
        expect(video.rows.sources[0].start_seconds).toBeGreaterThanOrEqual(2);
        expect(service.uploads.length).toBe(before);
        await gone(id);
        // Its words were not kept for reuse, and leave the database's files with the rows at the handover.
        const kept = await server.app.store.db.selectFrom("kept_transcripts").select("id").execute();
        expect(kept).toEqual([]);
        const readable = await databaseFiles(server.database);
        if (!("unreadable" in readable)) {
          const left = await waitFor(
            "the subtitles' words to leave the database's files",
            async () => {
              const files = await databaseFiles(server.database);
              const found = "files" in files ? markersIn(files.files, [marker]) : [];
              return found.length === 0 ? found : undefined;
            },
            10_000 + resetGraceMs,
          );
          expect(left).toEqual([]);
        }
      });

      it("transcribes a file without subtitles from its audio, billed from its measured length, and deletes it", async () => {
        const before = service.uploads.length;
        const { upload_id: id, duration_seconds: seconds } = await upload(tone);
        const job = await runJob(id);
        const video = job.results[0];
        expect(video.status, JSON.stringify(video)).toBe("done");
        expect(video.rows.results).toEqual([{ product: "kettle", price: 30 }]);
        expect(service.uploads.length).toBe(before + 1);
        const sent = service.uploads[before];
        // The audio alone, re-encoded small: not the file as uploaded.
        expect(sent?.fileName).toMatch(/\.m4a$/);
        expect(sent?.fileBytes).toBeLessThan(tone.byteLength);
        // 70 s measured: two started minutes at the transcription rate of 2.
        expect(seconds).toBeGreaterThan(69);
        expect(video.usage.credits_charged).toBe(4);
        await gone(id);
        expect(await server.app.store.db.selectFrom("kept_transcripts").select("id").execute()).toEqual([]);
      });

      it("deletes the file of a video that failed", async () => {
        const { upload_id: id } = await upload(tone);
        const job = await runJob(id, { transcribe: "never" });
        expect(job.results[0].status).toBe("failed");
        expect(job.results[0].error.code).toBe("no_captions");
        expect(job.results[0].error.message).toContain("no subtitle stream");
        await gone(id);
      });
    },
  );
}
