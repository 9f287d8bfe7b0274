// An upload store that is the PostgreSQL database itself: every API and worker machine already reaches it,
// so an upload taken on one machine is read by whichever worker claims its video (migration 0017).
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import { newDataKey } from "../store/sealed-values.js";
import type { Database } from "../store/tables.js";
import { evenPieces } from "./even-pieces.js";
import { localCopy } from "./local-copy.js";
import { openChunk, sealChunk } from "./sealed-chunks.js";
import type { LocalUpload, UploadStore } from "./upload-store.js";

/**
 * A MiB a row: few enough rows for an hour of video, small enough that a body's piece in memory and
 * each statement's value stay small. PostgreSQL keeps each out of line in its TOAST table.
 */
export const chunkBytes = 1024 * 1024;

/** What the store tells once an upload's rows and key are deleted: the key's table is owed a rewrite. */
export interface DeletionNotice {
  afterDeletion(partitions: readonly string[], table?: string): void;
}

export class UploadMissing extends Error {}

/**
 * Each upload has a row in `upload_blobs` with a random key of its own, and its bytes are rows of
 * `upload_chunks` sealed under that key (sealed-chunks.ts). PostgreSQL leaves deleted rows' bytes in its
 * files until their space is reused, and only a rewrite of a whole table removes them; removing an upload
 * deletes its rows and has the storage eraser rewrite `upload_blobs` (store/storage-eraser.ts), a table
 * of one short row per upload, after which the ciphertext left in `upload_chunks`' files is noise. Large
 * objects were not used: `pg_largeobject` is a catalog shared by every large object of the database, and
 * erasing one from its files means rewriting all of them (VACUUM FULL of a catalog, owner only).
 */
export class DatabaseUploadStore implements UploadStore {
  readonly description = "database (PostgreSQL upload_chunks)";

  constructor(
    private readonly db: Kysely<Database>,
    private readonly erasure: DeletionNotice,
  ) {}

  /** The database's disk is not in this process's view; the plan's limit bounds an upload. */
  async freeBytes(): Promise<number | null> {
    return null;
  }

  async write(uploadId: string, body: Readable): Promise<number> {
    const key = newDataKey();
    await this.db
      .insertInto("upload_blobs")
      .values({ upload_id: uploadId, data_key: key, started_at: Date.now(), stored_bytes: null })
      .execute();
    let bytes = 0;
    let seq = 0;
    try {
      // Each piece commits on its own: a long upload holds no transaction open, and a process that dies
      // mid-upload leaves a row without `stored_bytes` that the sweep removes.
      for await (const piece of evenPieces(body, chunkBytes)) {
        const sealed = sealChunk(key, uploadId, seq, piece);
        await this.db
          .insertInto("upload_chunks")
          .values({ upload_id: uploadId, seq, bytes: sealed })
          .execute();
        seq += 1;
        bytes += piece.byteLength;
      }
      await this.db
        .updateTable("upload_blobs")
        .set({ stored_bytes: bytes })
        .where("upload_id", "=", uploadId)
        .execute();
    } catch (error) {
      await this.remove(uploadId);
      throw error;
    }
    return bytes;
  }

  /** The upload's key and size; throws UploadMissing for none, or one still being written. */
  private async wholeUpload(uploadId: string): Promise<{ key: Buffer; chunks: number }> {
    const blob = await this.db
      .selectFrom("upload_blobs")
      .select(["data_key", "stored_bytes"])
      .where("upload_id", "=", uploadId)
      .executeTakeFirst();
    if (blob === undefined || blob.stored_bytes === null) {
      throw new UploadMissing(`The database holds no whole upload ${uploadId}.`);
    }
    return { key: blob.data_key, chunks: Math.ceil(blob.stored_bytes / chunkBytes) };
  }

  async read(uploadId: string): Promise<Readable> {
    const { key, chunks } = await this.wholeUpload(uploadId);
    const db = this.db;
    // One row at a time, asked for only when the reader wants more.
    async function* pieces(): AsyncGenerator<Buffer> {
      for (let seq = 0; seq < chunks; seq++) {
        const row = await db
          .selectFrom("upload_chunks")
          .select("bytes")
          .where("upload_id", "=", uploadId)
          .where("seq", "=", seq)
          .executeTakeFirst();
        if (row === undefined)
          throw new UploadMissing(`Upload ${uploadId} lost its piece ${seq}; it was removed.`);
        yield openChunk(key, uploadId, seq, row.bytes);
      }
    }
    return Readable.from(pieces(), { objectMode: false });
  }

  async localFile(uploadId: string): Promise<LocalUpload> {
    return localCopy(uploadId, await this.read(uploadId));
  }

  async remove(uploadId: string): Promise<void> {
    const removed = await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("upload_chunks").where("upload_id", "=", uploadId).execute();
      return trx
        .deleteFrom("upload_blobs")
        .where("upload_id", "=", uploadId)
        .returning("upload_id")
        .execute();
    });
    if (removed.length > 0) this.erasure.afterDeletion(["upload_blobs"], "upload_blobs");
  }

  async sweep(partialBefore: number, storedBefore: number): Promise<string[]> {
    const abandoned = await this.db
      .selectFrom("upload_blobs")
      .select("upload_id")
      .where("stored_bytes", "is", null)
      .where("started_at", "<", partialBefore)
      .execute();
    for (const { upload_id } of abandoned) await this.remove(upload_id);
    const stored = await this.db
      .selectFrom("upload_blobs")
      .select("upload_id")
      .where("stored_bytes", "is not", null)
      .where("started_at", "<", storedBefore)
      .execute();
    return stored.map((row) => row.upload_id);
  }
}
