// A store whose code is loaded when first used: the AWS SDK takes about 200 ms to import (measured on the
// development machine), which a process that never sees an upload, or keeps them elsewhere, should not pay.
import type { Readable } from "node:stream";
import type { LocalUpload, UploadStore } from "./upload-store.js";

export class DeferredUploadStore implements UploadStore {
  private loaded: Promise<UploadStore> | undefined;

  constructor(
    readonly description: string,
    private readonly load: () => Promise<UploadStore>,
  ) {}

  /** The store, loaded once; a failed load is tried again by the next call. */
  private store(): Promise<UploadStore> {
    this.loaded ??= this.load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  async freeBytes(): Promise<number | null> {
    return (await this.store()).freeBytes();
  }

  async write(uploadId: string, body: Readable): Promise<number> {
    return (await this.store()).write(uploadId, body);
  }

  async read(uploadId: string): Promise<Readable> {
    return (await this.store()).read(uploadId);
  }

  async localFile(uploadId: string): Promise<LocalUpload> {
    return (await this.store()).localFile(uploadId);
  }

  async remove(uploadId: string): Promise<void> {
    return (await this.store()).remove(uploadId);
  }

  async sweep(partialBefore: number, storedBefore: number): Promise<string[]> {
    return (await this.store()).sweep(partialBefore, storedBefore);
  }
}
