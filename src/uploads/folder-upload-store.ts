// An upload store that is a folder on this machine: beside the SQLite file by default (config/upload-settings.ts).
// Each upload is one file named by its id; it is written under a temporary name and renamed once whole, so
// that a file with an upload's name is always a whole upload.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, stat, statfs, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { LocalUpload, UploadStore } from "./upload-store.js";

/** What an upload's id looks like; anything else never becomes part of a path. */
const uploadIdPattern = /^upl_[0-9a-z]{26}$/;
/** An upload being written: its id, the writing process and a dot-part ending. */
const partialPattern = /^(upl_[0-9a-z]{26})\.\d+\.part$/;

function checkedId(uploadId: string): string {
  if (!uploadIdPattern.test(uploadId)) throw new Error(`not an upload id: ${JSON.stringify(uploadId)}`);
  return uploadId;
}

async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

export class FolderUploadStore implements UploadStore {
  private readonly folder: string;
  private made: Promise<unknown> | undefined;

  constructor(folder: string) {
    this.folder = resolve(folder);
  }

  get description(): string {
    return `folder ${this.folder}`;
  }

  /** Creates the folder once, readable by this user only (uploads are people's own recordings). */
  private ready(): Promise<unknown> {
    this.made ??= mkdir(this.folder, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      this.made = undefined;
      throw error;
    });
    return this.made;
  }

  private pathOf(uploadId: string): string {
    return join(this.folder, checkedId(uploadId));
  }

  async freeBytes(): Promise<number | null> {
    await this.ready();
    const info = await statfs(this.folder);
    return Number(info.bavail) * Number(info.bsize);
  }

  async write(uploadId: string, body: Readable): Promise<number> {
    await this.ready();
    const path = this.pathOf(uploadId);
    const partial = `${path}.${process.pid}.part`;
    try {
      await pipeline(body, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
      const { size } = await stat(partial);
      await rename(partial, path);
      return size;
    } catch (error) {
      await removeFile(partial);
      throw error;
    }
  }

  async read(uploadId: string): Promise<Readable> {
    const path = this.pathOf(uploadId);
    await stat(path);
    return createReadStream(path);
  }

  async localFile(uploadId: string): Promise<LocalUpload> {
    const path = this.pathOf(uploadId);
    await stat(path);
    return { path, release: async () => {} };
  }

  async remove(uploadId: string): Promise<void> {
    await removeFile(this.pathOf(uploadId));
  }

  async sweep(partialBefore: number, storedBefore: number): Promise<string[]> {
    await this.ready();
    const stored: string[] = [];
    for (const name of await readdir(this.folder)) {
      const whole = uploadIdPattern.test(name);
      if (!whole && !partialPattern.test(name)) continue;
      const path = join(this.folder, name);
      // A partial file is written to as its body arrives: one untouched this long has no writer left.
      const modified = await stat(path).then(
        (info) => info.mtimeMs,
        () => null,
      );
      if (modified === null) continue;
      if (!whole && modified < partialBefore) await removeFile(path);
      if (whole && modified < storedBefore) stored.push(name);
    }
    return stored;
  }
}
