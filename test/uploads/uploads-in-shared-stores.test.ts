// `/v1/uploads` over real HTTP with the stores several machines share: PostgreSQL itself and an
// S3-compatible bucket (the local fake). What is stored is the file; what is refused, cut off or left
// mid-way keeps nothing in the store; a deleted upload is gone from it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3Location } from "../../src/config/s3-settings.js";
import { type UploadStoreTarget, uploadSettings } from "../../src/config/upload-settings.js";
import { parsePlanTable } from "../../src/domain/plans.js";
import { DatabaseUploadStore } from "../../src/uploads/database-upload-store.js";
import { dialects } from "../support/databases.js";
import { type FakeS3, startFakeS3 } from "../support/fake-s3.js";
import { toneFile } from "../support/media-files.js";
import { startTestServer, testPlans, type TestServer } from "../support/test-server.js";
import { piecesOf, sendUpload } from "../support/upload-clients.js";
import { waitUntil } from "../support/waiting.js";

const media = mkdtempSync(join(tmpdir(), "vidrows-media-"));
const tone = readFileSync(toneFile(media, 3));
/** About two megabytes of tone, past the 1 MiB plan below. */
const longTone = readFileSync(toneFile(media, 240));
const plans = parsePlanTable(
  { ...testPlans, tiny: { ...testPlans.free, name: "Tiny", upload_megabytes: 1 } },
  "upload test plans",
);
const accessKey = "AKIASHAREDSTORES";
const postgres = dialects.find((d) => d.name === "postgres")!;

afterAll(() => rmSync(media, { recursive: true, force: true }));

interface SharedStore {
  readonly name: string;
  readonly skip: string | null;
  readonly dialect: "sqlite" | "postgres";
  target(): Promise<UploadStoreTarget>;
  /** Everything the store holds, described; the bytes of `uploadId` when given and held. */
  held(server: TestServer): Promise<string[]>;
  bytesOf(server: TestServer, uploadId: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

function inDatabase(): SharedStore {
  return {
    name: "PostgreSQL itself",
    skip: postgres.skipReason,
    dialect: "postgres",
    target: async () => ({ kind: "database" }),
    held: async (server) => {
      const db = server.app.store.db;
      const chunks = await db.selectFrom("upload_chunks").select(["upload_id", "seq"]).execute();
      const blobs = await db.selectFrom("upload_blobs").select("upload_id").execute();
      return [
        ...chunks.map((c) => `${c.upload_id} chunk ${c.seq}`),
        ...blobs.map((b) => `${b.upload_id} key`),
      ];
    },
    bytesOf: async (server, uploadId) => {
      const store = new DatabaseUploadStore(server.app.store.db, { afterDeletion: () => {} });
      const pieces: Buffer[] = [];
      for await (const piece of await store.read(uploadId)) pieces.push(piece as Buffer);
      return Buffer.concat(pieces);
    },
    close: async () => {},
  };
}

function inBucket(): SharedStore {
  let fake: FakeS3 | undefined;
  return {
    name: "an S3-compatible bucket",
    skip: null,
    dialect: "sqlite",
    target: async () => {
      fake = await startFakeS3(accessKey);
      process.env.AWS_ACCESS_KEY_ID = accessKey;
      process.env.AWS_SECRET_ACCESS_KEY = "fake-secret";
      return {
        kind: "s3",
        ...s3Location("s3://shared-uploads/vidrows", { VIDROWS_S3_ENDPOINT: fake.endpoint }),
      };
    },
    held: async () => [
      ...fake!.objects.keys(),
      ...[...fake!.unfinished.values()].map((u) => `unfinished ${u.key}`),
    ],
    bytesOf: async (_server, uploadId) => fake!.objects.get(`shared-uploads/vidrows/${uploadId}`)?.bytes,
    close: async () => fake?.close(),
  };
}

for (const shared of [inDatabase(), inBucket()]) {
  describe.skipIf(shared.skip !== null)(`uploads kept in ${shared.name}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      const settings = uploadSettings(
        { VIDROWS_UPLOAD_STALL_SECONDS: "2" },
        { kind: "sqlite", path: "unused" },
      );
      server = await startTestServer(shared.dialect, {
        plans,
        uploads: { ...settings, store: await shared.target() },
      });
    });
    afterAll(async () => {
      await server?.close();
      await shared.close();
    });

    const uploadTone = (key: string) =>
      fetch(`${server.url}/v1/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "audio/mp4" },
        body: tone,
      });

    it("stores the file as sent, and deletes it from the store", async () => {
      const { key } = await server.workspace();
      const created = await uploadTone(key);
      expect(created.status).toBe(201);
      const { upload_id: id, duration_seconds: seconds } = (await created.json()) as Record<string, any>;
      expect(seconds).toBeGreaterThan(2.9);
      expect((await shared.bytesOf(server, id))?.equals(tone)).toBe(true);
      expect((await server.call("DELETE", `/v1/uploads/${id}`, { key })).status).toBe(204);
      expect(await shared.held(server)).toEqual([]);
    });

    it("deletes from the store an upload no job took once its retention has passed", async () => {
      const { key } = await server.workspace();
      const created = await uploadTone(key);
      expect(created.status).toBe(201);
      const { upload_id: id } = (await created.json()) as { upload_id: string };
      await server.app.services.uploads.sweep(Date.now() + 23 * 3_600_000);
      expect((await shared.bytesOf(server, id))?.equals(tone)).toBe(true);
      await server.app.services.uploads.sweep(Date.now() + 25 * 3_600_000);
      expect(await shared.held(server)).toEqual([]);
      expect((await server.call("GET", "/v1/uploads", { key })).body.data).toEqual([]);
    });

    it("cuts off a body past the plan's limit (413) and keeps nothing of it", async () => {
      const { key } = await server.workspace("tiny");
      const answer = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        pieces: piecesOf(longTone, 64 * 1024),
      });
      expect(answer?.status).toBe(413);
      expect(JSON.parse(answer!.body).error.code).toBe("payload_too_large");
      await waitUntil(
        "nothing to be left in the store",
        async () => (await shared.held(server)).length === 0,
        5_000,
      );
    });

    it("keeps nothing of a client that leaves mid-upload, or one that stops sending", async () => {
      const { key } = await server.workspace();
      const left = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        pieces: piecesOf(longTone, 64 * 1024).slice(0, 20),
        pauseMs: 10,
        then: "reset",
      });
      expect(left).toBeNull();
      const stalled = await sendUpload(server.url, {
        key,
        contentType: "audio/mp4",
        pieces: [longTone.subarray(0, 100_000)],
        then: "wait",
      });
      if (stalled !== null) expect(stalled.status).toBe(400);
      await waitUntil(
        "nothing to be left in the store",
        async () => (await shared.held(server)).length === 0,
        5_000,
      );
    });

    it("refuses a body that is not media (415) and keeps nothing", async () => {
      const { key } = await server.workspace();
      const answer = await fetch(`${server.url}/v1/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/octet-stream" },
        body: "no media here".repeat(1000),
      });
      expect(answer.status).toBe(415);
      expect(await shared.held(server)).toEqual([]);
    });
  });
}
