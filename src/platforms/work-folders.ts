// The temporary folders of runs against video sites (a video's audio, a caption attempt, a page read, a
// listing): one per run, named after its kind and the process that made it, so that a process starting up
// can remove those a crashed process left behind.
import { mkdtemp, readdir, readFile, readlink, rm } from "node:fs/promises";
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
 * The processes still running inside `folder` (Linux's /proc): their working folder is in it, or their
 * command line names it, as every run vidrows starts there does (yt-dlp's output template, ffmpeg's files).
 * None where there is no /proc to read.
 */
async function processesIn(folder: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => "");
    const args = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    const inside = cwd === folder || cwd.startsWith(`${folder}/`);
    if (inside || args.split("\0").some((arg) => arg.includes(folder))) found.push(Number(entry));
  }
  return found;
}

/** Kills each process and the group it leads (a run leads its own: what it started goes with it). */
function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // Not a group leader, or gone already.
      }
    }
  }
}

/**
 * Removes the work folders under `root` whose process is no longer running (it was killed mid-run), first
 * killing what still runs inside them: a yt-dlp or ffmpeg the dead process started would otherwise go on
 * writing into a folder nobody sees. Those of running processes, this one included, are theirs. Answers
 * how many were removed.
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
    const folder = join(root, name);
    killAll(await processesIn(folder));
    await rm(folder, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
