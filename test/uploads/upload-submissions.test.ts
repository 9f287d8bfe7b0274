// `videos` elements naming uploads (`upload:<upload_id>`), checked at `POST /v1` over real HTTP with real media
// made by ffmpeg, on both databases: each refusal names its element, an upload is taken by one job only, and
// a taken upload is neither listed as pending nor deleted by the retention sweep.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadSettings } from "../../src/config/upload-settings.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { ffmpegMissing } from "../support/ffmpeg-present.js";
import { subtitledFile, toneFile } from "../support/media-files.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";

const missing = ffmpegMissing();
const media = mkdtempSync(join(tmpdir(), "vidrows-media-"));
const tone = missing === null ? readFileSync(toneFile(media, 3)) : Buffer.alloc(0);
const subtitled = missing === null ? readFileSync(subtitledFile(media, 4, ["Hello there"])) : Buffer.alloc(0);
afterAll(() => rmSync(media, { recursive: true, force: true }));

const schema = { columns: ["product", "price"] };

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || missing !== null)(
    `uploads submitted as videos on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let folder: string;

      beforeAll(async () => {
        folder = mkdtempSync(join(tmpdir(), "vidrows-uploads-"));
        const settings = uploadSettings(
          { VIDROWS_UPLOAD_RESERVE_MB: "0" },
          { kind: "sqlite", path: "unused" },
        );
        // No speech-to-text on this server: an upload without subtitles has nothing to be read by.
        server = await startPipelineServer(dialect.name, {
          config: { uploads: { ...settings, store: { kind: "folder", path: folder } } },
          app: { work: false },
        });
      });
      afterAll(async () => {
        await server?.close();
        rmSync(folder, { recursive: true, force: true });
      });

      async function upload(key: string, body: Buffer): Promise<string> {
        const response = await fetch(`${server.url}/v1/uploads`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/octet-stream" },
          body,
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { upload_id: string }).upload_id;
      }

      const submit = (key: string, videos: string[], extra: Record<string, unknown> = {}) =>
        server.call("POST", "/v1", { key, body: { videos, schema, ...extra } });

      it("takes an upload as a video named upload:<upload_id>, once, and keeps it from the retention sweep", async () => {
        const { key } = await server.workspace();
        const id = await upload(key, subtitled);
        const submitted = await submit(key, ["dQw4w9WgXcQ", `upload:${id}`]);
        expect(submitted.status, submitted.text).toBe(202);
        const jobId = submitted.body.job_id as string;
        const videos = await server.call("GET", `/v1/${jobId}/videos`, { key });
        expect(videos.status, videos.text).toBe(200);
        expect(videos.body.data.map((video: { video_id: string }) => video.video_id)).toContain(
          `upload:${id}`,
        );
        // Taken: no longer pending, and kept past its retention while the job needs it.
        expect((await server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
        await server.app.services.uploads.sweep(Date.now() + 25 * 3_600_000);
        expect(readdirSync(folder)).toContain(id);
        const row = await server.app.store.db
          .selectFrom("uploads")
          .select("job_id")
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        expect(row.job_id).toBe(jobId);

        const again = await submit(key, [`upload:${id}`]);
        expect(again.status).toBe(400);
        expect(again.body.error.param).toBe("videos[0]");
        expect(again.body.error.message).toContain(`already took`);
        expect(again.body.error.message).toContain(jobId);
      });

      it("refuses an upload the workspace does not have, another workspace's included, naming the element", async () => {
        const { key } = await server.workspace();
        const other = await server.workspace();
        const theirs = await upload(other.key, subtitled);
        const answer = await submit(key, ["dQw4w9WgXcQ", `upload:${theirs}`]);
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe("invalid_request");
        expect(answer.body.error.param).toBe("videos[1]");
        expect(answer.body.error.message).toContain("this workspace does not have");
        // Still theirs, still pending.
        const listed = await server.call("GET", "/v1/uploads", { key: other.key });
        expect(listed.body.data.map((u: { upload_id: string }) => u.upload_id)).toEqual([theirs]);

        const unknown = await submit(key, [`upload:upl_${"0".repeat(26)}`]);
        expect(unknown.status).toBe(400);
        expect(unknown.body.error.param).toBe("videos[0]");
      });

      it("refuses malformed upload references and the same upload twice in a job", async () => {
        const { key } = await server.workspace();
        for (const bad of [
          "upload:",
          "upload:upl_short",
          "upload:../../etc/passwd",
          `upload:UPL_${"0".repeat(26)}`,
        ]) {
          const answer = await submit(key, [bad]);
          expect(answer.status, bad).toBe(400);
          expect(answer.body.error.param).toBe("videos[0]");
          expect(answer.body.error.message).toContain("upload");
        }
        const id = await upload(key, subtitled);
        const twice = await submit(key, [`upload:${id}`, `upload:${id}`]);
        expect(twice.status).toBe(400);
        expect(twice.body.error.param).toBe("videos[1]");
        expect((await server.call("GET", "/v1/uploads", { key })).body.data).toHaveLength(1);
      });

      it("refuses an upload without subtitles when no speech-to-text could hear it, unless transcribe is never", async () => {
        const { key } = await server.workspace();
        const id = await upload(key, tone);
        const auto = await submit(key, ["dQw4w9WgXcQ", `upload:${id}`]);
        expect(auto.status).toBe(400);
        expect(auto.body.error.param).toBe("videos[1]");
        expect(auto.body.error.message).toContain("no subtitle stream");
        // Nothing was taken by the refused job.
        expect((await server.call("GET", "/v1/uploads", { key })).body.data).toHaveLength(1);
        const never = await submit(key, [`upload:${id}`], { transcribe: "never" });
        expect(never.status, never.text).toBe(202);
      });

      it("lets one of several jobs submitted at once take an upload, and refuses the others", async () => {
        const { key } = await server.workspace();
        const id = await upload(key, subtitled);
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => submit(key, ["dQw4w9WgXcQ", `upload:${id}`])),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([202, 400, 400, 400]);
        for (const refused of answers.filter((answer) => answer.status === 400)) {
          expect(refused.body.error.param).toBe("videos[1]");
        }
        const jobs = await server.call("GET", "/v1", { key });
        expect(jobs.body.data).toHaveLength(1);
      });

      it("deletes the file of a job cancelled before its video was read, as the cancellation settles it", async () => {
        const { key } = await server.workspace();
        const id = await upload(key, subtitled);
        const submitted = await submit(key, [`upload:${id}`]);
        expect(submitted.status, submitted.text).toBe(202);
        const cancelled = await server.call("POST", `/v1/${submitted.body.job_id}/cancel`, { key });
        expect(cancelled.status, cancelled.text).toBe(200);
        expect(readdirSync(folder)).not.toContain(id);
        const rows = await server.app.store.db
          .selectFrom("uploads")
          .select("id")
          .where("id", "=", id)
          .execute();
        expect(rows).toEqual([]);
      });

      it("answers a replayed Idempotency-Key as before, though its upload is taken by then", async () => {
        const { key } = await server.workspace();
        const id = await upload(key, subtitled);
        const headers = { "idempotency-key": `uploads-${id}` };
        const first = await server.call("POST", "/v1", {
          key,
          headers,
          body: { videos: [`upload:${id}`], schema },
        });
        expect(first.status, first.text).toBe(202);
        const replay = await server.call("POST", "/v1", {
          key,
          headers,
          body: { videos: [`upload:${id}`], schema },
        });
        expect(replay.status, replay.text).toBe(202);
        expect(replay.body.job_id).toBe(first.body.job_id);
      });
    },
  );
}
