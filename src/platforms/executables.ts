// Finding the programs vidrows runs against video sites (yt-dlp, ffmpeg): the path a setting names, else the
// first on PATH. The one finder for captions, speech-to-text, other platforms and listings.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { type ProgramName, programSetting } from "./programs.js";

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** How to install each program, for the message that says it is missing. */
const installHint: Record<ProgramName, string> = {
  "yt-dlp": "pipx install yt-dlp, or the release binary",
  ffmpeg: "apt-get install ffmpeg",
  ffprobe: "apt-get install ffmpeg, which brings it",
};

/**
 * The absolute path of `program`: the one its setting (VIDROWS_YTDLP_PATH, VIDROWS_FFMPEG_PATH) names, else
 * the first on the search path. Throws an Error naming the program and the setting, beginning with
 * `neededBy` (what needs it), so that a worker that could not do its work stops at start-up.
 */
export function findProgram(
  program: ProgramName,
  configuredPath: string | undefined,
  neededBy: string,
  searchPath = process.env.PATH ?? "",
): string {
  const variable = programSetting[program];
  const configured = configuredPath?.trim();
  if (configured) {
    const path = resolve(configured);
    if (isExecutableFile(path)) return path;
    throw new Error(`${variable} is "${configured}", but that is not an executable file.`);
  }
  for (const folder of searchPath.split(delimiter)) {
    if (folder === "") continue;
    const candidate = resolve(join(folder, program));
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new Error(
    `${neededBy} needs ${program}, which is not on PATH: install it (${installHint[program]}) or set ` +
      `${variable} to its path.`,
  );
}

/** The path of `program` as findProgram finds it, or null when there is none. */
export function locateProgram(
  program: ProgramName,
  configuredPath: string | undefined,
  searchPath = process.env.PATH ?? "",
): string | null {
  try {
    return findProgram(program, configuredPath, "vidrows", searchPath);
  } catch {
    return null;
  }
}
