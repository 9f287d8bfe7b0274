// The second yt-dlp run of an attempt: yt-dlp downloads the one caption track vidrows chose from the info of
// the first run (--load-info-json, so YouTube is not asked for the video again), with its own cookies,
// impersonation and proxy, and the file it writes is read back.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { accessArguments, type AttemptAccess } from "../platforms/platform-access.js";
import type { YtDlpTrack } from "./ytdlp-info.js";

/** yt-dlp's --sub-langs are regular expressions matched whole: the track's key, taken literally. */
function literalPattern(key: string): string {
  return key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const outputStem = "subtitle";

/**
 * The command line that has yt-dlp write the track into `folder`: written captions with --write-subs and
 * automatic ones with --write-auto-subs only, since yt-dlp prefers a written track when a key is in both.
 */
export function subtitleRunArguments(
  infoFile: string,
  track: YtDlpTrack,
  folder: string,
  access: AttemptAccess,
) {
  return [
    "--load-info-json",
    infoFile,
    "--skip-download",
    // The info may list no media format (YouTube withholds them without a token); nor does this run need one.
    "--ignore-no-formats-error",
    "--no-progress",
    track.kind === "asr" ? "--write-auto-subs" : "--write-subs",
    "--sub-langs",
    literalPattern(track.key),
    "--sub-format",
    track.format,
    "--output",
    join(folder, `${outputStem}.%(ext)s`),
    ...accessArguments(access),
  ];
}

/** The text of the caption file yt-dlp wrote into `folder`, or null when it wrote none. */
export async function writtenSubtitle(folder: string, track: YtDlpTrack): Promise<string | null> {
  const names = await readdir(folder);
  const name = names.find(
    (candidate) => candidate.startsWith(`${outputStem}.`) && candidate.endsWith(`.${track.format}`),
  );
  return name === undefined ? null : readFile(join(folder, name), "utf8");
}
