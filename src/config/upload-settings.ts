// Uploads (`POST /v1/uploads`): where their bytes live, how long an unused one is kept, how long a stalled
// one is waited for, the free space left to the machine, and the programs that measure them.
import { basename, dirname, join } from "node:path";
import type { DatabaseTarget } from "./database-settings.js";
import { type S3Location, s3Location } from "./s3-settings.js";
import { ConfigError, integerSetting } from "./setting-values.js";

/**
 * Where upload bytes live: a folder on this machine, the PostgreSQL database itself, or a bucket of an
 * S3-compatible object store (`prefix` is empty or ends in `/`; endpoint and region as s3-settings.ts reads them).
 */
export type UploadStoreTarget =
  | { readonly kind: "folder"; readonly path: string }
  | { readonly kind: "database" }
  | ({ readonly kind: "s3" } & S3Location);

export interface UploadSettings {
  /** VIDROWS_UPLOAD_STORE: a folder, `database` or `s3://bucket/prefix`; unset, the default of `defaultUploadStore`. */
  readonly store: UploadStoreTarget;
  /** VIDROWS_UPLOAD_RETENTION_HOURS (24): how long an upload no job has taken is kept. */
  readonly retentionHours: number;
  /** VIDROWS_UPLOAD_STALL_SECONDS (30): an upload whose body stops arriving this long is cut off. */
  readonly stallSeconds: number;
  /** VIDROWS_UPLOAD_RESERVE_MB (512), in bytes: free space an upload may never take from the store's disk. */
  readonly reserveBytes: number;
  /** VIDROWS_FFPROBE_PATH: the ffprobe executable; unset, `ffprobe` on PATH (looked up at the first upload). */
  readonly ffprobePath?: string;
  /** VIDROWS_FFMPEG_PATH: the ffmpeg executable that measures an upload's audio; unset, `ffmpeg` on PATH. */
  readonly ffmpegPath?: string;
}

/**
 * Beside the SQLite file (`data/vidrows.db` keeps its uploads in `data/vidrows.db-uploads/`); with
 * PostgreSQL, the database itself, which every API and worker machine reaches.
 */
export function defaultUploadStore(database: DatabaseTarget): UploadStoreTarget {
  if (database.kind === "sqlite") {
    return { kind: "folder", path: join(dirname(database.path), `${basename(database.path)}-uploads`) };
  }
  return { kind: "database" };
}

function uploadStoreSetting(env: NodeJS.ProcessEnv, database: DatabaseTarget): UploadStoreTarget {
  const raw = env.VIDROWS_UPLOAD_STORE?.trim();
  if (!raw) return defaultUploadStore(database);
  if (raw === "database") {
    if (database.kind === "postgres") return { kind: "database" };
    throw new ConfigError(
      "VIDROWS_UPLOAD_STORE=database keeps uploads in PostgreSQL; with SQLite name a folder (`./database` for one of that name) or leave it unset.",
    );
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1];
  if (scheme?.toLowerCase() === "s3") return { kind: "s3", ...s3Location(raw, env) };
  if (scheme !== undefined) {
    throw new ConfigError(
      `VIDROWS_UPLOAD_STORE must be a folder's path, \`database\` or s3://bucket/prefix; a ${scheme}:// store is not supported.`,
    );
  }
  return { kind: "folder", path: raw };
}

export function uploadSettings(env: NodeJS.ProcessEnv, database: DatabaseTarget): UploadSettings {
  return Object.freeze({
    store: uploadStoreSetting(env, database),
    retentionHours: integerSetting(env, "VIDROWS_UPLOAD_RETENTION_HOURS", 24, 1, 8760),
    stallSeconds: integerSetting(env, "VIDROWS_UPLOAD_STALL_SECONDS", 30, 1, 3600),
    reserveBytes: integerSetting(env, "VIDROWS_UPLOAD_RESERVE_MB", 512, 0, 10_000_000) * 1024 * 1024,
    ffprobePath: env.VIDROWS_FFPROBE_PATH?.trim() || undefined,
    ffmpegPath: env.VIDROWS_FFMPEG_PATH?.trim() || undefined,
  });
}
