// A private local copy of an upload held off this machine, for ffprobe and ffmpeg, which read files.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { LocalUpload } from "./upload-store.js";

/**
 * Copies `bytes` into a new folder of the system's temporary folder readable by this user only; the
 * copy is removed on release, and at once when the copy fails (a full disk leaves nothing behind).
 */
export async function localCopy(uploadId: string, bytes: Readable): Promise<LocalUpload> {
  const folder = await mkdtemp(join(tmpdir(), "vidrows-upload-"));
  const release = () => rm(folder, { recursive: true, force: true });
  const path = join(folder, uploadId);
  try {
    await pipeline(bytes, createWriteStream(path, { flags: "wx", mode: 0o600 }));
  } catch (error) {
    await release();
    throw error;
  }
  return { path, release };
}
