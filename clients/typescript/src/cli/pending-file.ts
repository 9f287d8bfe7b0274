// A file that appears at its path only once it is whole: written beside it under a temporary name, then
// renamed over the path (atomic on one file system), or removed when the command fails or has nothing.
import { randomUUID } from "node:crypto";
import { type FileHandle, open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface PendingFile {
  write(text: string): Promise<void>;
  /** Puts the written text at the path, replacing a file already there. */
  commit(): Promise<void>;
  /** Removes what was written; the path is left as it was. Safe to call after `commit`. */
  discard(): Promise<void>;
}

/**
 * Opens the temporary file now, so that a path that cannot be written (no such folder, no permission,
 * a folder's name) fails before anything is asked of the server.
 */
export async function openPendingFile(path: string): Promise<PendingFile> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new Error(`${path} is a folder`);
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID().slice(0, 8)}.part`);
  const handle: FileHandle = await open(temporary, "wx");
  let isOpen = true;
  const close = async () => {
    if (isOpen) await handle.close();
    isOpen = false;
  };
  let committed = false;
  return {
    async write(text) {
      await handle.writeFile(text, "utf8");
    },
    async commit() {
      await close();
      await rename(temporary, path);
      committed = true;
    },
    async discard() {
      await close();
      if (!committed) await rm(temporary, { force: true });
    },
  };
}
