// The uploads service of a process, built from its settings: the store its bytes go to and the programs
// that measure them, found when the first upload needs them.
import type { UploadSettings } from "../config.js";
import { ApiError } from "../http/api-errors.js";
import { findProgram } from "../platforms/executables.js";
import type { Store } from "../store/database.js";
import { FolderUploadStore } from "./folder-upload-store.js";
import { MediaProbe } from "./media-probe.js";
import { Uploads } from "./uploads.js";

/** ffprobe and ffmpeg, found once; a 503 naming the one missing until both are there. */
function programFinder(settings: UploadSettings): () => { ffprobe: string; ffmpeg: string } {
  let found: { ffprobe: string; ffmpeg: string } | undefined;
  return () => {
    if (found) return found;
    try {
      found = {
        ffprobe: findProgram("ffprobe", settings.ffprobePath, "Uploads"),
        ffmpeg: findProgram("ffmpeg", settings.ffmpegPath, "Uploads"),
      };
    } catch (error) {
      throw new ApiError("unavailable", `${(error as Error).message} Until then no upload is taken.`);
    }
    return found;
  };
}

export function createUploads(store: Store, settings: UploadSettings): Uploads {
  return new Uploads(
    store,
    new FolderUploadStore(settings.store.path),
    new MediaProbe(programFinder(settings)),
    {
      retentionMs: settings.retentionHours * 3_600_000,
      stallMs: settings.stallSeconds * 1000,
      reserveBytes: settings.reserveBytes,
    },
  );
}
