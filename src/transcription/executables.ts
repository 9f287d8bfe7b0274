// Finding the programs speech-to-text runs (yt-dlp for the audio, ffmpeg to cut it) when a worker starts.
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
 * The absolute path of `name`: the one `variable` names, else the first on PATH. Throws an Error naming
 * the program and the variable, so that a worker that could not transcribe stops at start-up.
 */
export function findProgram(
  name: string,
  variable: string,
  configuredPath: string | undefined,
  searchPath = process.env.PATH ?? "",
): string {
  const configured = configuredPath?.trim();
  if (configured) {
    const path = resolve(configured);
    if (isExecutableFile(path)) return path;
    throw new Error(`${variable} is "${configured}", but that is not an executable file.`);
  }
  for (const folder of searchPath.split(delimiter)) {
    if (folder === "") continue;
    const candidate = resolve(join(folder, name));
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new Error(
    `Speech-to-text is configured (VIDROWS_TRANSCRIBE_*), and it needs ${name}, which is not on PATH: ` +
      `install it (apt-get install ${name}) or set ${variable} to its path.`,
  );
}
