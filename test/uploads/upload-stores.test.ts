// Every kind of upload store keeps the same promises (uploads/upload-store.ts): a body streamed in is read
// back byte for byte, as a stream and as a local file; a body that fails keeps nothing; a removed upload is
// gone; the sweep finds old ones. A folder, PostgreSQL itself, and an S3-compatible store (a local fake).
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3Location } from "../../src/config/s3-settings.js";
import { newId } from "../../src/domain/ids.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { type OpenedStore, openStore } from "../../src/store/database.js";
import { chunkBytes, DatabaseUploadStore } from "../../src/uploads/database-upload-store.js";
import { FolderUploadStore } from "../../src/uploads/folder-upload-store.js";
import { S3UploadStore } from "../../src/uploads/s3-upload-store.js";
import type { UploadStore } from "../../src/uploads/upload-store.js";
import { dialects, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { type FakeS3, startFakeS3 } from "../support/fake-s3.js";

/** `bytes` arriving in pieces of `pieceBytes`, then (with `failure`) an error instead of the rest. */
function arriving(bytes: Buffer, pieceBytes: number, failure?: Error): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.byteLength; at += pieceBytes) {
        if (failure && at >= bytes.byteLength / 2) throw failure;
        yield bytes.subarray(at, at + pieceBytes);
      }
    })(),
    { objectMode: false },
  );
}

async function whole(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

interface StoreCase {
  readonly name: string;
  readonly skip: string | null;
  open(): Promise<UploadStore>;
  /** What the store still holds anywhere of `uploadId`, described; empty when nothing. */
  leftOf(uploadId: string): Promise<string[]>;
  close(): Promise<void>;
}

const accessKey = "AKIAFAKEUPLOADS";
const postgres = dialects.find((d) => d.name === "postgres")!;

function folderCase(): StoreCase {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-upload-store-"));
  return {
    name: "a folder",
    skip: null,
    open: async () => new FolderUploadStore(folder),
    leftOf: async (id) => (existsSync(join(folder, id)) ? [id] : []),
    close: async () => rmSync(folder, { recursive: true, force: true }),
  };
}

function databaseCase(): StoreCase & { erased: string[] } {
  let database: FreshDatabase | undefined;
  let store: OpenedStore | undefined;
  const erased: string[] = [];
  return {
    name: "PostgreSQL",
    skip: postgres.skipReason,
    erased,
    open: async () => {
      database = await freshDatabase("postgres");
      store = openStore(database.target);
      await migrateToLatest(store);
      return new DatabaseUploadStore(store.db, { afterDeletion: (tables) => erased.push(...tables) });
    },
    leftOf: async (id) => {
      const chunks = await store!.db
        .selectFrom("upload_chunks")
        .select("seq")
        .where("upload_id", "=", id)
        .execute();
      const blobs = await store!.db
        .selectFrom("upload_blobs")
        .select("upload_id")
        .where("upload_id", "=", id)
        .execute();
      return [...chunks.map((c) => `chunk ${c.seq}`), ...blobs.map(() => "key row")];
    },
    close: async () => {
      await store?.close();
      await database?.drop();
    },
  };
}

function s3Case(): StoreCase & { fake: () => FakeS3 } {
  let fake: FakeS3 | undefined;
  return {
    name: "an S3-compatible store",
    skip: null,
    fake: () => fake!,
    open: async () => {
      fake = await startFakeS3(accessKey);
      process.env.AWS_ACCESS_KEY_ID = accessKey;
      process.env.AWS_SECRET_ACCESS_KEY = "fake-secret";
      return new S3UploadStore(
        s3Location("s3://vidrows-uploads/staging/", {
          VIDROWS_S3_ENDPOINT: fake.endpoint,
          VIDROWS_S3_REGION: "eu-west-3",
        }),
      );
    },
    leftOf: async (id) => [
      ...[...fake!.objects.keys()].filter((key) => key.endsWith(id)),
      ...[...fake!.unfinished.values()].filter((u) => u.key.endsWith(id)).map((u) => `unfinished ${u.key}`),
    ],
    close: async () => {
      await fake?.close();
    },
  };
}

const database = databaseCase();
const s3 = s3Case();
const cases: StoreCase[] = [folderCase(), database, s3];

for (const kind of cases) {
  describe.skipIf(kind.skip !== null)(`the upload store in ${kind.name}`, () => {
    let store: UploadStore;
    beforeAll(async () => {
      store = await kind.open();
    });
    afterAll(() => kind.close());

    it("reads back a body streamed in pieces, byte for byte, as a stream and as a local file", async () => {
      // Over two database chunks and with an odd tail, arriving in pieces that straddle the chunks.
      const bytes = randomBytes(2 * chunkBytes + 12_345);
      const id = newId("upl");
      expect(await store.write(id, arriving(bytes, 100_003))).toBe(bytes.byteLength);
      expect((await whole(await store.read(id))).equals(bytes)).toBe(true);
      const local = await store.localFile(id);
      expect(readFileSync(local.path).equals(bytes)).toBe(true);
      await local.release();
      expect((await store.read(id).then(whole)).byteLength).toBe(bytes.byteLength);
      await store.remove(id);
      await expect(store.read(id)).rejects.toThrow();
      await expect(store.localFile(id)).rejects.toThrow();
      expect(await kind.leftOf(id)).toEqual([]);
      await store.remove(id);
    });

    it("keeps nothing of a body that fails on the way, and rejects with its error", async () => {
      const id = newId("upl");
      const cut = new Error("the client went away");
      await expect(store.write(id, arriving(randomBytes(3 * chunkBytes), 65_536, cut))).rejects.toThrow(
        "the client went away",
      );
      expect(await kind.leftOf(id)).toEqual([]);
      await expect(store.read(id)).rejects.toThrow();
    });

    it("answers the whole uploads stored before a time, for the caller to remove those no row describes", async () => {
      const id = newId("upl");
      await store.write(id, arriving(randomBytes(1000), 1000));
      expect(await store.sweep(0, 0)).not.toContain(id);
      expect(await store.sweep(0, Date.now() + 60_000)).toContain(id);
      await store.remove(id);
      expect(await store.sweep(0, Date.now() + 60_000)).not.toContain(id);
    });
  });
}

describe.skipIf(postgres.skipReason !== null)("the upload store in PostgreSQL, underneath", () => {
  let store: OpenedStore;
  let fresh: FreshDatabase;
  const erased: string[] = [];
  beforeAll(async () => {
    fresh = await freshDatabase("postgres");
    store = openStore(fresh.target);
    await migrateToLatest(store);
  });
  afterAll(async () => {
    await store?.close();
    await fresh?.drop();
  });

  it("stores chunks sealed under the upload's key, and asks for the key's table to be rewritten once removed", async () => {
    const uploads = new DatabaseUploadStore(store.db, { afterDeletion: (tables) => erased.push(...tables) });
    const marker = Buffer.from(`plainmarker${randomBytes(8).toString("hex")}`);
    const bytes = Buffer.concat([marker, randomBytes(chunkBytes), marker]);
    const id = newId("upl");
    await uploads.write(id, arriving(bytes, 4096));
    const chunks = await store.db
      .selectFrom("upload_chunks")
      .select(["seq", "bytes"])
      .where("upload_id", "=", id)
      .orderBy("seq")
      .execute();
    expect(chunks.map((c) => c.seq)).toEqual([0, 1]);
    for (const chunk of chunks) expect(chunk.bytes.includes(marker)).toBe(false);
    expect(erased).toEqual([]);
    await uploads.remove(id);
    expect(erased).toEqual(["upload_blobs"]);
  });

  it("leaves a write a dead process abandoned to the sweep, which removes it", async () => {
    const uploads = new DatabaseUploadStore(store.db, { afterDeletion: () => {} });
    const id = newId("upl");
    // What a process killed mid-body leaves: the key row without a size, and the chunks so far.
    await store.db
      .insertInto("upload_blobs")
      .values({ upload_id: id, data_key: randomBytes(32), started_at: 1, stored_bytes: null })
      .execute();
    await store.db
      .insertInto("upload_chunks")
      .values({ upload_id: id, seq: 0, bytes: randomBytes(64) })
      .execute();
    await expect(uploads.read(id)).rejects.toThrow(`no whole upload ${id}`);
    expect(await uploads.sweep(0, Date.now())).not.toContain(id);
    expect(
      await store.db.selectFrom("upload_chunks").select("seq").where("upload_id", "=", id).execute(),
    ).toHaveLength(1);
    expect(await uploads.sweep(2, Date.now())).not.toContain(id);
    expect(
      await store.db.selectFrom("upload_chunks").select("seq").where("upload_id", "=", id).execute(),
    ).toEqual([]);
    expect(
      await store.db.selectFrom("upload_blobs").select("upload_id").where("upload_id", "=", id).execute(),
    ).toEqual([]);
  });
});

describe("the upload store in an S3-compatible store, underneath", () => {
  let fake: FakeS3;
  const location = (endpoint: string) =>
    s3Location("s3://vidrows-uploads/team-a", { VIDROWS_S3_ENDPOINT: endpoint });
  beforeAll(async () => {
    fake = await startFakeS3(accessKey);
    process.env.AWS_ACCESS_KEY_ID = accessKey;
    process.env.AWS_SECRET_ACCESS_KEY = "fake-secret";
  });
  afterAll(() => fake?.close());

  it("sends a long body as a multipart upload under the prefix, and deletes the object", async () => {
    const uploads = new S3UploadStore(location(fake.endpoint));
    const bytes = randomBytes(17 * 1024 * 1024 + 5);
    const id = newId("upl");
    fake.calls.length = 0;
    expect(await uploads.write(id, arriving(bytes, 256 * 1024))).toBe(bytes.byteLength);
    expect(fake.calls.filter((c) => c === "PUT UploadPart")).toHaveLength(3);
    expect(fake.calls).toContain("POST CompleteMultipartUpload");
    expect(fake.objects.get(`vidrows-uploads/team-a/${id}`)?.bytes.equals(bytes)).toBe(true);
    await uploads.remove(id);
    expect(fake.objects.size).toBe(0);
  });

  it("aborts a multipart upload whose body failed, and one a dead process left, keeping no part", async () => {
    const uploads = new S3UploadStore(location(fake.endpoint));
    const id = newId("upl");
    await expect(
      uploads.write(id, arriving(randomBytes(20 * 1024 * 1024), 1024 * 1024, new Error("cut off"))),
    ).rejects.toThrow("cut off");
    expect(fake.unfinished.size).toBe(0);
    expect(fake.objects.size).toBe(0);
    fake.unfinished.set("left-by-a-dead-process", {
      key: `team-a/${newId("upl")}`,
      initiated: new Date(1000),
      parts: new Map([[1, randomBytes(10)]]),
    });
    await uploads.sweep(Date.now(), 0);
    expect(fake.unfinished.size).toBe(0);
  });

  it("fails a write the store refuses (a key it does not know), keeping nothing", async () => {
    process.env.AWS_ACCESS_KEY_ID = "AKIASOMEONEELSE";
    try {
      const uploads = new S3UploadStore(location(fake.endpoint));
      await expect(uploads.write(newId("upl"), arriving(randomBytes(1000), 1000))).rejects.toThrow();
      expect(fake.objects.size).toBe(0);
    } finally {
      process.env.AWS_ACCESS_KEY_ID = accessKey;
    }
  });
});
