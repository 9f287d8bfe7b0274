// The temporary folders of runs against video sites (a video's audio, a caption attempt, a page read, a
// listing): one per run, named after its kind and the process that made it, so that a process starting up
// can remove those a crashed process left behind.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type WorkFolderKind = "audio" | "captions" | "page" | "listing";

const folderPattern = /^vidrows-(?:audio|captions|page|listing)-(\d+)-/;

/** A new, empty folder under `root` for one run; the caller removes it when the run ends. */
export function newWorkFolder(kind: WorkFolderKind, root = tmpdir()): Promise<string> {
  return mkdtemp(join(root, `vidrows-${kind}-${process.pid}-`));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the work folders under `root` whose process is no longer running (it crashed mid-video);
 * those of running processes, this one included, are theirs. Answers how many were removed.
 */
export async function sweepAbandonedWorkFolders(root: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(folderPattern.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
