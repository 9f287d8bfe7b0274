// What a process that runs video-site programs does as it starts, whatever its role: remove the work folders
// (captions, pages, listings, audio) that killed processes left, killing what still runs in them, and say
// once when programs it starts cannot be given a death signal. A worker sweeps its own roots as it starts
// (pipeline/worker.ts); this covers a process that serves without a worker, whose listing runs make folders
// too.
import { tmpdir } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import { logBackgroundFailure } from "../logger.js";
import { deathSignalLauncher } from "../platforms/death-signal.js";
import { sweepAbandonedWorkFolders } from "../platforms/work-folders.js";

/** Sweeps the system's temporary folder (where listing, page and caption runs keep theirs) in the background. */
export function sweepWorkFoldersAtStart(log: FastifyBaseLogger, root = tmpdir()): Promise<void> {
  return sweepAbandonedWorkFolders(root)
    .then((removed) => {
      if (removed > 0) log.info({ removed }, "removed work folders left by stopped processes");
    })
    .catch((error: unknown) => logBackgroundFailure(log, error, {}, "sweeping leftover work folders failed"));
}

/** Warns, once at start, where the programs this process starts would outlive it if it were killed. */
export function warnWithoutDeathSignal(log: FastifyBaseLogger): void {
  if (deathSignalLauncher() !== null) return;
  log.warn(
    "no setpriv with --pdeathsig (util-linux 2.33 or later, Linux only): yt-dlp and ffmpeg runs of this process outlive it if it is killed, until the next start's sweep ends them",
  );
}
