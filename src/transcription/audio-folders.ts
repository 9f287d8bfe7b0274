// The temporary folders a video's audio lives in while it is transcribed: one per video, named after the
// process that made it, so that a process starting up can remove those a crashed process left behind.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { join } from "node:path";

const prefix = "vidrows-audio-";
const folderPattern = /^vidrows-audio-(\d+)-/;

/** A new, empty folder under `root` for one video's audio; the caller removes it when the video ends. */
export function newAudioFolder(root: string): Promise<string> {
  return mkdtemp(join(root, `${prefix}${process.pid}-`));
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
 * Removes the audio folders under `root` whose process is no longer running (it crashed mid-video);
 * those of running processes, this one included, are theirs. Answers how many were removed.
 */
export async function sweepAbandonedAudioFolders(root: string): Promise<number> {
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
