// `vidrows-client jobs submit ./call.mkv ./lecture.mkv` against the real server (SQLite and PostgreSQL): local
// files uploaded as they are read and submitted as `upload:<upload_id>`, with a progress line on a terminal
// and plain lines otherwise; a missing file refused before anything is sent.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadSettings } from "../../../src/config/upload-settings.js";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { ffmpegMissing } from "../../../test/support/ffmpeg-present.js";
import { rowOnLineWith } from "../../../test/support/fake-model.js";
import { subtitledFile } from "../../../test/support/media-files.js";
import { type PipelineServer, startPipelineServer } from "../../../test/support/pipeline.js";
import { printed, runCli } from "./cli-support.js";

const missing = ffmpegMissing();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null || missing !== null)(
    `vidrows-client jobs submit with local files on ${dialectTitle(dialect)}`,
    () => {
      let server: PipelineServer;
      let folder: string;
      let media: string;
      let call: string;
      let lecture: string;

      beforeAll(async () => {
        folder = mkdtempSync(join(tmpdir(), "vidrows-uploads-"));
        media = mkdtempSync(join(tmpdir(), "vidrows-cli-media-"));
        call = join(media, "call.mkv");
        copyFileSync(subtitledFile(media, 4, ["The blue kettle costs thirty dollars."]), call);
        lecture = join(media, "lecture.mkv");
        copyFileSync(call, lecture);
        const settings = uploadSettings(
          { VIDROWS_UPLOAD_RESERVE_MB: "0" },
          { kind: "sqlite", path: "unused" },
        );
        server = await startPipelineServer(dialect.name, {
          respond: rowOnLineWith("kettle", { product: "kettle", price: 30 }),
          config: { uploads: { ...settings, store: { kind: "folder", path: folder } } },
        });
      });
      afterAll(async () => {
        await server?.close();
        rmSync(folder, { recursive: true, force: true });
        rmSync(media, { recursive: true, force: true });
      });

      const submit = (key: string, files: string[], options = {}) =>
        runCli(
          server.url,
          key,
          ["jobs", "submit", ...files, "--columns", "product,price", "--wait", "--interval", "20"],
          options,
        );

      it("uploads each file and submits it as upload:<upload_id>, in plain lines off a terminal", async () => {
        const { key } = await server.workspace();
        const run = await submit(key, [call, lecture]);
        const settled = printed(run);
        expect(settled).toMatchObject({ status: "done", counts: { done: 2 }, videos: 2 });
        const lines = run.stderr.trim().split("\n");
        expect(lines).toHaveLength(4);
        expect(lines[0]).toMatch(/^Uploading call\.mkv \(\d+\.\d MB\)$/);
        expect(lines[1]).toMatch(/^Uploaded call\.mkv as upl_[0-9a-z]{26} \(4\.\d s of audio\)$/);
        expect(lines[2]).toMatch(/^Uploading lecture\.mkv/);
        expect(run.stderr).not.toContain("\r");
        const ids = [...run.stderr.matchAll(/as (upl_[0-9a-z]{26})/g)].map((match) => `upload:${match[1]}`);
        const videos = printed(await runCli(server.url, key, ["jobs", "videos", settled.job_id]));
        expect(videos.data.map((video: { video_id: string }) => video.video_id)).toEqual(ids);
      });

      it("rewrites a progress line on a terminal", async () => {
        const { key } = await server.workspace();
        const run = await submit(key, [call], { tty: true });
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).toContain("\r\x1b[2KUploading call.mkv: 100% (");
        expect(run.stderr).toContain("\r\x1b[2KUploaded call.mkv as upl_");
      });

      it("refuses a file that is not there before uploading anything", async () => {
        const { key } = await server.workspace();
        const run = await submit(key, [call, join(media, "absent.mp4")]);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain("absent.mp4: no such file");
        expect((await server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
        expect((await server.call("GET", "/v1", { key })).body.data).toEqual([]);
      });
    },
  );
}
