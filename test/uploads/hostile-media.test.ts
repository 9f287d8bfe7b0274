// Uploads that try to make ffprobe or ffmpeg reach the network (contract section 13, "Uploads" and
// "Egress"): HLS playlists, ffconcat lists, an SDP file, protocol strings and an MP4 whose samples are said
// to be at a URL, all naming a loopback canary that records HTTP requests, raw connections and UDP
// datagrams. Over real HTTP on both databases: each upload is refused in the contract's error shape and
// the canary hears nothing. None is accepted, so the worker's own ffmpeg (subtitles and audio) is given
// each one as the bytes of an accepted upload: the video fails, the canary, the model and the
// transcription endpoint hear nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Canary, startCanary } from "../platforms/egress/canary.js";
import { type DatagramCanary, startDatagramCanary } from "../support/datagram-canary.js";
import { openApiDocument } from "../../src/http/openapi-route.js";
import { dialects, dialectTitle } from "../support/databases.js";
import type { FakeTranscription } from "../support/fake-transcription.js";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { type HostileFile, hostileFiles } from "../support/hostile-media.js";
import { checkerFor } from "../support/openapi-checker.js";
import { subtitledFile, toneFile } from "../support/media-files.js";
import type { PipelineServer } from "../support/pipeline.js";
import { startUploadPipeline, type UploadPipeline } from "../support/upload-pipeline.js";

const missing = ffmpegMissing();
if (missing !== null) console.warn(`Skipping the hostile upload tests: ${missing}`);
const media = mkdtempSync(join(tmpdir(), "vidrows-media-"));
const tonePath = missing === null ? toneFile(media, 3) : "";
const tone = missing === null ? readFileSync(tonePath) : Buffer.alloc(0);
const subtitled = missing === null ? readFileSync(subtitledFile(media, 4, ["Hello there"])) : Buffer.alloc(0);
afterAll(() => rmSync(media, { recursive: true, force: true }));

/** The hostile files' names, known before the canary's port is, for one test per file. */
const names =
  missing === null ? hostileFiles(0, tonePath).map((file) => file.name) : ["nothing (ffmpeg is missing)"];

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || missing !== null)(
    `hostile uploads on ${dialectTitle(dialect)}`,
    () => {
      let canary: Canary;
      let datagrams: DatagramCanary;
      let pipeline: UploadPipeline;
      let server: PipelineServer;
      let service: FakeTranscription;
      let folder: string;
      let key: string;
      let files: HostileFile[];

      beforeAll(async () => {
        canary = await startCanary();
        datagrams = await startDatagramCanary(canary.port);
        files = hostileFiles(canary.port, tonePath);
        pipeline = await startUploadPipeline(dialect.name, {
          heard: [[0, 3, "The blue kettle costs thirty dollars."]],
        });
        ({ server, transcription: service, folder, key } = pipeline);
      });
      afterAll(async () => {
        await pipeline?.close();
        await datagrams?.close();
        await canary?.close();
      });

      /** Everything that reached the canary, by any protocol. */
      const heard = () => [...canary.hits, ...canary.connections, ...datagrams.datagrams];
      /** What reached it since `before` (an earlier test's reach is that test's failure, not this one's). */
      const heardSince = (before: string[]) => heard().filter((each) => !before.includes(each));

      async function upload(body: Buffer) {
        const response = await fetch(`${server.url}/v1/uploads`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "video/mp4" },
          body,
        });
        const text = await response.text();
        return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
      }

      it.each(names)("refuses %s, and nothing reaches the canary", async (name) => {
        const file = files.find((each) => each.name === name)!;
        const before = readdirSync(folder);
        const earlier = heard();
        const answer = await upload(file.body);
        // Not media (415), or media whose audio is nowhere in the file (400 naming the body).
        expect([400, 415], answer.text).toContain(answer.status);
        checkerFor(openApiDocument(server.app.http!)).check("POST", "/v1/uploads", answer);
        const { error } = answer.body;
        if (answer.status === 415) {
          expect(error.code).toBe("unsupported_media_type");
          expect(error.message).toMatch(/not audio or video .*Send an audio or video file/);
        } else {
          expect(error.code).toBe("invalid_request");
          expect(error.param).toBe("body");
          expect(error.message).toMatch(/audio track/);
        }
        // Nothing of the refused file is kept, and no network address appears in what the uploader is told.
        expect(error.message).not.toMatch(/127\.0\.0\.1|http|refused/i);
        expect(readdirSync(folder)).toEqual(before);
        expect(heardSince(earlier)).toEqual([]);
      });

      it.each(names)(
        "a worker given %s as an accepted upload's bytes fails the video and reaches nothing",
        async (name) => {
          const file = files.find((each) => each.name === name)!;
          const models = server.model.requestCount;
          const transcriptions = service.uploads.length;
          const earlier = heard();
          // A file without subtitles is read for its audio, one with them for its subtitle stream: both ffmpeg runs.
          const ids: string[] = [];
          for (const accepted of [tone, subtitled]) {
            const created = await upload(accepted);
            expect(created.status, created.text).toBe(201);
            ids.push(created.body.upload_id);
            writeFileSync(join(folder, created.body.upload_id), file.body);
          }
          const submitted = await server.call("POST", "/v1", {
            key,
            body: { videos: ids.map((id) => `upload:${id}`), schema: { columns: ["product", "price"] } },
          });
          expect(submitted.status, submitted.text).toBe(202);
          const job = await server.waitForSettled(key, submitted.body.job_id, 30_000);
          for (const video of job.results) {
            expect(video.status, JSON.stringify(video)).toBe("failed");
            // An MP4 whose samples are nowhere still has an audio stream to map: its re-encoding has no
            // sound, which speech-to-text refuses before sending anything.
            expect(["video_unavailable", "transcription_failed"]).toContain(video.error.code);
            expect(video.error.message).toMatch(/could not (be )?read|failed reading the audio/);
            // Nothing of the server's own: no network error, no path of the file on disk, no memory address.
            expect(video.error.message).not.toMatch(/127\.0\.0\.1|refused|0x[0-9a-f]{6}/i);
            expect(video.error.message).not.toContain(folder);
          }
          expect(heardSince(earlier)).toEqual([]);
          expect(server.model.requestCount).toBe(models);
          expect(service.uploads.length).toBe(transcriptions);
        },
      );
    },
  );
}
