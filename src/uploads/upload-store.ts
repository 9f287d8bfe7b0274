// Where an upload's bytes live between `POST /v1/uploads` and the end of the video that reads them: the one
// interface every kind of store answers to: a folder on this machine (folder-upload-store.ts), the PostgreSQL
// database itself (database-upload-store.ts) or an S3-compatible object store (s3-upload-store.ts).
import type { Readable } from "node:stream";

/** A file on this machine holding an upload's bytes, for ffprobe and ffmpeg to read; released after. */
export interface LocalUpload {
  readonly path: string;
  /** Removes what was made only for this reading (a store that keeps its files on this machine removes nothing). */
  release(): Promise<void>;
}

export interface UploadStore {
  /** What the store is, for logs and messages: `folder /srv/uploads`. Never a password. */
  readonly description: string;
  /** The bytes the store can still take before the machine's disk is full, or null when it cannot tell. */
  freeBytes(): Promise<number | null>;
  /**
   * Stores `body` under `uploadId`, reading it as it arrives (never whole in memory); answers its size.
   * Rejects with the body's own error (too large, stalled, cut off) or the store's, and then keeps nothing.
   */
  write(uploadId: string, body: Readable): Promise<number>;
  /** The upload's bytes as they were written, read as they are consumed; rejects when the store holds no such upload. */
  read(uploadId: string): Promise<Readable>;
  /** The upload as a local file (a copy for a store off this machine); rejects when the store holds no such upload. */
  localFile(uploadId: string): Promise<LocalUpload>;
  /** Removes the upload's bytes; removing one that is not there succeeds. */
  remove(uploadId: string): Promise<void>;
  /**
   * Sweeps what no upload will ever use again: writes abandoned before `partialBefore` (Unix ms, a
   * process that died mid-upload) are removed, and the ids of whole uploads stored before `storedBefore`
   * are answered, for the caller to remove those no row describes.
   */
  sweep(partialBefore: number, storedBefore: number): Promise<string[]>;
}
