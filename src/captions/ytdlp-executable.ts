// Finding the yt-dlp executable when a worker starts: VIDROWS_YTDLP_PATH, else `yt-dlp` on PATH.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The absolute path of the yt-dlp to run, or null when there is none: the one VIDROWS_YTDLP_PATH names
 * (null when that is not an executable file), else the first on the search path.
 */
export function locateYtDlp(
  configuredPath: string | undefined,
  searchPath = process.env.PATH ?? "",
): string | null {
  try {
    return findYtDlp(configuredPath, searchPath);
  } catch {
    return null;
  }
}

/**
 * The absolute path of the yt-dlp to run. Throws an Error naming VIDROWS_YTDLP_PATH when there is none, so a
 * worker that cannot fetch captions stops at start-up instead of failing every video.
 */
export function findYtDlp(configuredPath: string | undefined, searchPath = process.env.PATH ?? ""): string {
  const configured = configuredPath?.trim();
  if (configured) {
    const path = resolve(configured);
    if (isExecutableFile(path)) return path;
    throw new Error(`VIDROWS_YTDLP_PATH is "${configured}", but that is not an executable file.`);
  }
  for (const folder of searchPath.split(delimiter)) {
    if (folder === "") continue;
    const candidate = resolve(join(folder, "yt-dlp"));
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new Error(
    "VIDROWS_CAPTIONS names yt-dlp, but there is no yt-dlp executable on PATH: install it " +
      "(pipx install yt-dlp, or the release binary) or set VIDROWS_YTDLP_PATH to its path.",
  );
}
