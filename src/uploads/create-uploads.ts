// The uploads service of a process, built from its settings: the store its bytes go to and the programs
// that measure them, found when the first upload needs them.
import type { UploadSettings } from "../config.js";
import { ApiError } from "../http/api-errors.js";
import { findProgram } from "../platforms/executables.js";
import type { Store } from "../store/database.js";
import { type DeletionNotice, DatabaseUploadStore } from "./database-upload-store.js";
import { FolderUploadStore } from "./folder-upload-store.js";
import { MediaProbe } from "./media-probe.js";
import { DeferredUploadStore } from "./deferred-upload-store.js";
import type { UploadStore } from "./upload-store.js";
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

/** The store the settings name; `erasure` hears of each upload removed from the database. */
export function createUploadStore(
  store: Store,
  settings: UploadSettings,
  erasure: DeletionNotice,
): UploadStore {
  const target = settings.store;
  if (target.kind === "folder") return new FolderUploadStore(target.path);
  if (target.kind === "s3") {
    const where = `s3://${target.bucket}/${target.prefix}`;
    return new DeferredUploadStore(where, async () => {
      const { S3UploadStore } = await import("./s3-upload-store.js");
      return new S3UploadStore(target);
    });
  }
  if (store.dialect !== "postgres") throw new Error("Uploads are kept in the database only on PostgreSQL.");
  return new DatabaseUploadStore(store.db, erasure);
}

export function createUploads(store: Store, settings: UploadSettings, erasure: DeletionNotice): Uploads {
  return new Uploads(
    store,
    createUploadStore(store, settings, erasure),
    new MediaProbe(programFinder(settings)),
    {
      retentionMs: settings.retentionHours * 3_600_000,
      stallMs: settings.stallSeconds * 1000,
      reserveBytes: settings.reserveBytes,
    },
  );
}
