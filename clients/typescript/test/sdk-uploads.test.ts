// vr.uploads against the real server (SQLite and PostgreSQL) with real media made by ffmpeg: a file from a
// Node.js stream, a Blob and bytes; listing and deleting; a file that is not media; another workspace's id.
import { createReadStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { toneFile } from "../../../test/support/media-files.js";
import { startTestServer, type TestServer } from "../../../test/support/test-server.js";
import { clientFor, expectApiError } from "./client-support.js";

const media = mkdtempSync(join(tmpdir(), "vidrows-sdk-media-"));
const tonePath = toneFile(media, 2);
const tone = readFileSync(tonePath);
afterAll(() => rmSync(media, { recursive: true, force: true }));

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vr.uploads on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    let folder: string;
    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), "vidrows-sdk-uploads-"));
      server = await startTestServer(
        dialect.name,
        {
          uploads: {
            store: { kind: "folder", path: folder },
            retentionHours: 24,
            stallSeconds: 30,
            reserveBytes: 0,
          },
        },
        { work: false },
      );
    });
    afterAll(async () => {
      await server?.close();
      rmSync(folder, { recursive: true, force: true });
    });
    const client = async () => clientFor(server.url, (await server.workspace()).key);

    it("uploads a file from a stream, a Blob and bytes, lists them and deletes one", async () => {
      const vr = await client();
      const streamed = await vr.uploads.create(createReadStream(tonePath), { contentType: "audio/mp4" });
      expect(streamed.upload_id).toMatch(/^upl_/);
      expect(streamed.bytes).toBe(tone.byteLength);
      expect(streamed.duration_seconds).toBeGreaterThan(1.9);
      const blob = await vr.uploads.create(new Blob([tone], { type: "audio/mp4" }));
      const bytes = await vr.uploads.create(new Uint8Array(tone));
      expect(blob.bytes).toBe(tone.byteLength);
      expect(bytes.bytes).toBe(tone.byteLength);

      const listed = await vr.uploads.list();
      expect(listed.data.map((upload) => upload.upload_id).sort()).toEqual(
        [streamed.upload_id, blob.upload_id, bytes.upload_id].sort(),
      );
      await vr.uploads.delete(blob.upload_id);
      expect((await vr.uploads.list()).data).toHaveLength(2);
    });

    it("answers the server's errors: not media, another workspace's upload", async () => {
      const vr = await client();
      await expectApiError(vr.uploads.create(new TextEncoder().encode("not a recording")), {
        code: "unsupported_media_type",
        status: 415,
      });
      const mine = await vr.uploads.create(new Uint8Array(tone));
      const other = await client();
      await expectApiError(other.uploads.delete(mine.upload_id), { code: "upload_not_found", status: 404 });
      expect((await vr.uploads.list()).data).toHaveLength(1);
    });
  });
}
