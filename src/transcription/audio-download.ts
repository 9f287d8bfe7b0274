// A video's audio through yt-dlp: audio only, the smallest format the platform offers (speech needs no
// more), through the process's platform access: the same proxies, cookies and per-site pace as captions.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { AudioLimits } from "../domain/media-bounds.js";
import { accessArguments, type AttemptAccess, type PlatformAccess } from "../platforms/platform-access.js";
import { platformUnavailable as unavailable } from "../platforms/platform-error.js";
import { siteOf } from "../platforms/sites.js";

export interface DownloadedAudio {
  readonly path: string;
  /** The video's length as the platform gives it, when it does. */
  readonly durationSeconds: number | undefined;
}

/** The port the speech-to-text flow downloads through; a test may put anything behind it. */
export interface AudioSource {
  /**
   * Writes the audio of the video at `url` into `folder`, stopping past `limits`; throws a PlatformError
   * when it cannot, a BoundExceeded past a bound.
   */
  download(
    url: string,
    videoId: string,
    folder: string,
    signal: AbortSignal | undefined,
    limits?: AudioLimits,
  ): Promise<DownloadedAudio>;
}

export interface YtDlpAudioSourceOptions {
  readonly executable: string;
  readonly access: PlatformAccess;
  /** A download takes longer than reading captions: 15 minutes unless set. */
  readonly timeoutMs?: number;
}

const stem = "audio";

/**
 * The protocols a download may use: those yt-dlp fetches over HTTP itself (through the egress guard). A
 * page may offer rtmp://, rtsp://, mms:// or websocket formats, which yt-dlp hands to rtmpdump, ffmpeg or
 * mpv, and those connect to the page's address without any proxy; such a format is never chosen.
 */
export const guardedProtocols = "[protocol~='^(https?|m3u8(_native)?|http_dash_segments)$']";

/**
 * The command line: the info printed as JSON (its duration) and the download done too (--no-simulate);
 * `wa/w` is the smallest audio-only format, else the smallest with audio at all, of guardedProtocols.
 */
export function audioDownloadArguments(url: string, folder: string, access: AttemptAccess) {
  return [
    "--dump-json",
    "--no-simulate",
    "--no-playlist",
    "--no-progress",
    "--no-part",
    "-f",
    `wa${guardedProtocols}/w${guardedProtocols}`,
    "-o",
    join(folder, `${stem}.%(ext)s`),
    ...accessArguments(access),
    "--",
    url,
  ];
}

export class YtDlpAudioSource implements AudioSource {
  constructor(private readonly options: YtDlpAudioSourceOptions) {}

  async download(url: string, videoId: string, folder: string, signal: AbortSignal | undefined) {
    const { access } = this.options;
    const args = audioDownloadArguments(url, folder, await access.ytDlpAttempt(folder));
    const output = await access.runYtDlpForVideo(siteOf(url), videoId, {
      executable: this.options.executable,
      args,
      timeoutMs: this.options.timeoutMs ?? 15 * 60_000,
      signal,
    });
    const written = (await readdir(folder)).find((name) => name.startsWith(`${stem}.`));
    if (written === undefined) throw unavailable(`yt-dlp wrote no audio file for ${videoId}.`);
    return { path: join(folder, written), durationSeconds: durationOf(output.stdout) };
  }
}

/** The `duration` of the info JSON yt-dlp printed, when it gave one. */
function durationOf(stdout: string): number | undefined {
  try {
    const info = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as { duration?: unknown };
    return typeof info.duration === "number" && info.duration > 0 ? info.duration : undefined;
  } catch {
    return undefined;
  }
}
