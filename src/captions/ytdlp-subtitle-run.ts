// The second yt-dlp run of an attempt: yt-dlp downloads the one caption track vidrows chose from the info of
// the first run (--load-info-json, so YouTube is not asked for the video again), with its own cookies,
// impersonation and proxy, and the file it writes is read back.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { inMegabytes } from "../domain/media-bounds.js";
import { accessArguments, type AttemptAccess } from "../platforms/platform-access.js";
import { PlatformError } from "../platforms/platform-error.js";
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

/**
 * The info the subtitle run loads: the first run's, with the chosen track as its only caption entry. yt-dlp
 * takes the last entry of a language in the asked format while vidrows read the first, and it fetches an
 * rtsp:// or rtmp:// entry with a program that connects without any proxy: left as the page gave them, a
 * page could have yt-dlp fetch another URL than the one vidrows checked.
 */
export function infoForTrack(infoText: string, track: YtDlpTrack): string {
  const info = JSON.parse(infoText) as Record<string, unknown>;
  const only = { [track.key]: [{ ext: track.format, url: track.url }] };
  info.subtitles = track.kind === "asr" ? {} : only;
  info.automatic_captions = track.kind === "asr" ? only : {};
  delete info.requested_subtitles;
  return JSON.stringify(info);
}

/**
 * The largest caption file read: the captions of a 12-hour talk, with every word timed, are a few MB; a
 * larger file is a page's doing, and reading it would cost memory and model requests its charge never pays.
 */
export const maxCaptionFileBytes = 16_000_000;

/**
 * The text of the caption file yt-dlp wrote into `folder`, or null when it wrote none; a file past
 * `maxBytes` fails the video `video_unavailable`, unread.
 */
export async function writtenSubtitle(
  folder: string,
  track: YtDlpTrack,
  maxBytes = maxCaptionFileBytes,
): Promise<string | null> {
  const names = await readdir(folder);
  const name = names.find(
    (candidate) => candidate.startsWith(`${outputStem}.`) && candidate.endsWith(`.${track.format}`),
  );
  if (name === undefined) return null;
  const path = join(folder, name);
  const { size } = await stat(path);
  if (size > maxBytes) {
    throw new PlatformError(
      "video_unavailable",
      `The caption file is larger than ${inMegabytes(maxBytes)}, the most captions vidrows reads; nothing was charged.`,
    );
  }
  return readFile(path, "utf8");
}
