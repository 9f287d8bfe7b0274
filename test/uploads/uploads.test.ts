// `/v1/uploads` over real HTTP with real media made by ffmpeg, on both databases: what is stored and measured,
// what is refused and why, and that a refused, cut-off or expired upload leaves no file behind.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadSettings } from "../../src/config/upload-settings.js";
import { parsePlanTable } from "../../src/domain/plans.js";
import { openApiDocument } from "../../src/http/openapi-route.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { silentVideoFile, subtitledFile, toneFile } from "../support/media-files.js";
import { checkerFor } from "../support/openapi-checker.js";
import { startTestServer, testPlans, type TestServer } from "../support/test-server.js";
import { piecesOf, sendUpload } from "../support/upload-clients.js";
import { waitUntil } from "../support/waiting.js";

const media = mkdtempSync(join(tmpdir(), "vidrows-media-"));
const tone = readFileSync(toneFile(media, 3));
const silent = readFileSync(silentVideoFile(media));
const subtitled = readFileSync(subtitledFile(media, 4, ["Hello there", "General remarks"]));
/** Two megabytes of tone, past the 1 MiB plan below. */
const longTone = readFileSync(toneFile(media, 240));

const plans = parsePlanTable(
  {
    ...testPlans,
    tiny: { ...testPlans.free, name: "Tiny", upload_megabytes: 1 },
    none: { ...testPlans.free, name: "None", upload_megabytes: 0 },
    short: { ...testPlans.free, name: "Short", longest_video_minutes: 1 },
  },
  "upload test plans",
);

afterAll(() => rmSync(media, { recursive: true, force: true }));

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`uploads on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    let folder: string;
    const filesLeft = () => readdirSync(folder);

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), "vidrows-uploads-"));
      const settings = uploadSettings(
        { VIDROWS_UPLOAD_STALL_SECONDS: "2", VIDROWS_UPLOAD_RESERVE_MB: "0" },
        {
          kind: "sqlite",
          path: "unused",
        },
      );
      server = await startTestServer(dialect.name, {
        plans,
        // A short whole-request limit: uploads must outlast it (they are watched for stalls instead).
        httpTimeouts: { headersMs: 2_000, requestMs: 2_000, keepAliveMs: 72_000 },
        uploads: { ...settings, store: { kind: "folder", path: folder } },
      });
    });
    afterAll(async () => {
      await server?.close();
      rmSync(folder, { recursive: true, force: true });
    });

    async function upload(key: string, body: Buffer | string, contentType = "audio/mp4", extra = {}) {
      const response = await fetch(`${server.url}/v1/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": contentType, ...extra },
        body,
      });
      const text = await response.text();
      const answer = { status: response.status, headers: response.headers, body: JSON.parse(text), text };
      checkerFor(openApiDocument(server.app.http!)).check("POST", "/v1/uploads", answer);
      return answer;
    }

    it("stores a file, measures it, lists it for its workspace only and deletes it", async () => {
      const { key } = await server.workspace();
      const other = await server.workspace();
      const created = await upload(key, tone);
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual([
        "bytes",
        "created_at",
        "duration_seconds",
        "expires_at",
        "upload_id",
      ]);
      const id = created.body.upload_id as string;
      expect(id).toMatch(/^upl_[0-9a-z]{26}$/);
      expect(created.body.bytes).toBe(tone.byteLength);
      expect(created.body.duration_seconds).toBeGreaterThan(2.9);
      expect(created.body.duration_seconds).toBeLessThan(3.2);
      expect(filesLeft()).toContain(id);
      expect(readFileSync(join(folder, id)).equals(tone)).toBe(true);

      const listed = await server.call("GET", "/v1/uploads", { key });
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([created.body]);
      const theirs = await server.call("GET", "/v1/uploads", { key: other.key });
      expect(theirs.body.data).toEqual([]);

      const stolen = await server.call("DELETE", `/v1/uploads/${id}`, { key: other.key });
      expect(stolen.status).toBe(404);
      expect(stolen.body.error.code).toBe("upload_not_found");
      expect(filesLeft()).toContain(id);

      expect((await server.call("DELETE", `/v1/uploads/${id}`, { key })).status).toBe(204);
      expect(filesLeft()).not.toContain(id);
      expect((await server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
      expect((await server.call("DELETE", `/v1/uploads/${id}`, { key })).status).toBe(404);
    });

    it("takes a body sent in small pieces, slowly, past the whole-request timeout", async () => {
      const { key } = await server.workspace();
      // Ten pieces 300 ms apart: 3 s, past the 2 s whole-request limit and under the 2 s stall limit each.
      const answer = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        pieces: piecesOf(tone, Math.ceil(tone.byteLength / 10)),
        pauseMs: 300,
      });
      expect(answer?.status).toBe(201);
      const created = JSON.parse(answer!.body);
      expect(created.bytes).toBe(tone.byteLength);
      expect(readFileSync(join(folder, created.upload_id)).equals(tone)).toBe(true);
    });

    it("records a Matroska file's subtitle stream", async () => {
      const { key } = await server.workspace();
      const created = await upload(key, subtitled, "video/x-matroska");
      expect(created.status).toBe(201);
      const row = await server.app.store.db
        .selectFrom("uploads")
        .selectAll()
        .where("id", "=", created.body.upload_id)
        .executeTakeFirstOrThrow();
      expect(row.subtitle_stream).toBe(1);
      expect(row.job_id).toBeNull();
    });

    it("refuses a body that is not media, whatever its content type says (415), and keeps nothing", async () => {
      const { key } = await server.workspace();
      const before = filesLeft();
      const lying = await upload(key, "#EXTM3U\n#EXTINF:3,\n/etc/passwd\n", "audio/mpeg");
      expect(lying.status).toBe(415);
      expect(lying.body.error.code).toBe("unsupported_media_type");
      expect(lying.body.error.message).toContain("not audio or video");
      const text = await upload(key, "just some words", "application/octet-stream");
      expect(text.status).toBe(415);
      expect(filesLeft()).toEqual(before);
      expect((await server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
    });

    it("refuses bodies not declared as audio, video or octet-stream, and compressed ones (415)", async () => {
      const { key } = await server.workspace();
      for (const type of ["text/plain", "application/json", "image/png", "multipart/form-data; boundary=x"]) {
        const answer = await upload(key, type === "application/json" ? "{}" : tone, type);
        expect(answer.status, type).toBe(415);
        expect(answer.body.error.message, type).toContain("audio/*, video/* or application/octet-stream");
      }
      const gzip = await upload(key, tone, "audio/mp4", { "content-encoding": "gzip" });
      expect(gzip.status).toBe(415);
      expect(gzip.body.error.message).toContain("content-encoding");
      const none = await sendUpload(server.url, { key, pieces: [tone] });
      expect(none?.status).toBe(415);
      expect(filesLeft().filter((name) => !name.startsWith("upl_"))).toEqual([]);
    });

    it("refuses a file without an audio track (400 naming body)", async () => {
      const { key } = await server.workspace();
      const answer = await upload(key, silent, "video/mp4");
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: "invalid_request", param: "body" });
      expect(answer.body.error.message).toContain("no audio track");
      const empty = await upload(key, Buffer.alloc(0), "video/mp4");
      expect(empty.status).toBe(400);
      expect(empty.body.error.param).toBe("body");
    });

    it("refuses a file longer than the plan's longest video (400)", async () => {
      const { key } = await server.workspace("short");
      const answer = await upload(key, longTone);
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toContain("longest video of 1 minutes");
    });

    it("answers 413 to a declared length over the plan's limit before reading the body", async () => {
      const { key } = await server.workspace("tiny");
      const before = filesLeft();
      // Headers say 2 MiB; only a few bytes follow and the client waits: the answer must come anyway.
      const answer = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        contentLength: 2 * 1024 * 1024,
        pieces: [tone.subarray(0, 100)],
        then: "wait",
      });
      expect(answer?.status).toBe(413);
      const body = JSON.parse(answer!.body);
      expect(body.error.code).toBe("payload_too_large");
      expect(body.error.message).toContain("upload limit of 1 MiB");
      expect(filesLeft()).toEqual(before);
    });

    it("cuts off a chunked body once it passes the limit (413) and keeps no partial file", async () => {
      const { key } = await server.workspace("tiny");
      const before = filesLeft();
      expect(longTone.byteLength).toBeGreaterThan(1024 * 1024);
      const answer = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        pieces: piecesOf(longTone, 64 * 1024),
      });
      expect(answer?.status).toBe(413);
      expect(filesLeft()).toEqual(before);
    });

    it("refuses uploads on a plan that takes none (403)", async () => {
      const { key } = await server.workspace("none");
      const answer = await upload(key, tone);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe("plan_limit");
    });

    it("leaves no partial file when the client leaves mid-upload, and goes on serving", async () => {
      const { key } = await server.workspace();
      const before = filesLeft();
      const answer = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        pieces: piecesOf(longTone, 64 * 1024).slice(0, 5),
        pauseMs: 20,
        then: "reset",
      });
      expect(answer).toBeNull();
      await waitUntil("the partial file to be removed", () => filesLeft().length === before.length, 5_000);
      expect(filesLeft()).toEqual(before);
      expect((await upload(key, tone)).status).toBe(201);
    });

    it("cuts off an upload that stops arriving, and keeps nothing", async () => {
      const { key } = await server.workspace();
      const before = filesLeft();
      const answer = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        pieces: [tone.subarray(0, 1000)],
        then: "wait",
      });
      // The stall limit is 2 s; the server answers 400 (or just closes) and removes what it had.
      if (answer !== null) expect(answer.status).toBe(400);
      expect(filesLeft()).toEqual(before);
      expect((await server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
    });

    it("deletes an upload no job took once its retention has passed", async () => {
      const { key } = await server.workspace();
      const created = await upload(key, tone);
      const id = created.body.upload_id as string;
      await server.app.services.uploads.sweep(Date.now() + 23 * 3_600_000);
      expect(filesLeft()).toContain(id);
      await server.app.services.uploads.sweep(Date.now() + 25 * 3_600_000);
      expect(filesLeft()).not.toContain(id);
      expect((await server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
      const rows = await server.app.store.db
        .selectFrom("uploads")
        .select("id")
        .where("id", "=", id)
        .execute();
      expect(rows).toEqual([]);
    });
  });
}

describe.skipIf(dialects[0]!.skipReason !== null)("uploads when the disk is nearly full", () => {
  it("refuses an upload that would leave less than the reserve free (507), before reading it", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vidrows-uploads-"));
    // A reserve of ten terabytes: more than this machine's disk has free.
    const settings = uploadSettings(
      { VIDROWS_UPLOAD_RESERVE_MB: "10000000" },
      { kind: "sqlite", path: "unused" },
    );
    const server = await startTestServer("sqlite", {
      plans,
      uploads: { ...settings, store: { kind: "folder", path: folder } },
    });
    try {
      const { key } = await server.workspace();
      const response = await fetch(`${server.url}/v1/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "audio/mp4" },
        body: tone,
      });
      expect(response.status).toBe(507);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("insufficient_storage");
      expect(body.error.message).toContain("too little free space");
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      await server.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
