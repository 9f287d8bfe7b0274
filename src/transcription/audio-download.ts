// A video's audio through yt-dlp: audio only, the smallest format the platform offers (speech needs no
// more), through the process's platform access: the same proxies, cookies and per-site pace as captions.
// Bounded three ways, cheapest first: yt-dlp refuses a video whose platform gives a length past the bound
// (--break-match-filters) or a file the server announces larger than the audio bound (--max-filesize), and
// this process watches the bytes written, stopping a download past the bound or still running at its
// deadline (download-watch.ts), since a hostile server announces nothing and never ends.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type AudioLimits, BoundExceeded, inMegabytes } from "../domain/media-bounds.js";
import { accessArguments, type AttemptAccess, type PlatformAccess } from "../platforms/platform-access.js";
import { platformUnavailable as unavailable } from "../platforms/platform-error.js";
import { siteOf } from "../platforms/sites.js";
import { DownloadWatch } from "./download-watch.js";

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
  /** VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS: how long a download may run; 15 minutes unless set. */
  readonly timeoutMs?: number;
  /** How often the bytes written are measured (500 ms unless set). */
  readonly watchIntervalMs?: number;
}

const stem = "audio";

/** yt-dlp's exit code when --break-match-filters refused the video. */
const refusedByFilter = 101;

/** A page's claim within this much of the length bound is taken as within it (rounding). */
const claimToleranceSeconds = 1;

/** The arguments that make yt-dlp itself refuse what the bounds exclude, before it downloads. */
function boundArguments(limits: AudioLimits | undefined): string[] {
  if (limits === undefined) return [];
  const longest = Math.floor(limits.length.maxSeconds + claimToleranceSeconds);
  return [
    "--max-filesize",
    String(limits.maxBytes),
    // `<=?` lets a video the platform gives no length through: its length is measured once downloaded.
    "--break-match-filters",
    `duration <=? ${longest}`,
  ];
}

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
export function audioDownloadArguments(
  url: string,
  folder: string,
  access: AttemptAccess,
  limits?: AudioLimits,
) {
  return [
    "--dump-json",
    "--no-simulate",
    "--no-playlist",
    "--no-progress",
    "--no-part",
    "-f",
    `wa${guardedProtocols}/w${guardedProtocols}`,
    ...boundArguments(limits),
    "-o",
    join(folder, `${stem}.%(ext)s`),
    ...accessArguments(access),
    "--",
    url,
  ];
}

const defaultTimeoutMs = 15 * 60_000;

/** Time for the watch's deadline to come first and say why, before runProgram's own limit kills the run. */
const programTimeoutMarginMs = 30_000;

export class YtDlpAudioSource implements AudioSource {
  constructor(private readonly options: YtDlpAudioSourceOptions) {}

  async download(
    url: string,
    videoId: string,
    folder: string,
    signal: AbortSignal | undefined,
    limits?: AudioLimits,
  ): Promise<DownloadedAudio> {
    const { access } = this.options;
    const args = audioDownloadArguments(url, folder, await access.ytDlpAttempt(folder), limits);
    const timeoutMs = this.options.timeoutMs ?? defaultTimeoutMs;
    // The caller's abort and the watch's stop both end the run; the caller's reason is kept as it is.
    const run = new AbortController();
    const onAbort = () => run.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const watch = new DownloadWatch({
      folder,
      filePrefix: `${stem}.`,
      maxBytes: limits?.maxBytes ?? Number.MAX_SAFE_INTEGER,
      boundNamed:
        limits === undefined
          ? "no bound"
          : `the most ${limits.length.named} may take at ${limits.kilobitsPerSecond} kbit/s`,
      deadlineMs: timeoutMs,
      deadlineSetting: "VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS",
      intervalMs: this.options.watchIntervalMs,
      stop: (reason) => run.abort(reason),
    });
    let stdout: string;
    let exitCode: number | null;
    try {
      ({ stdout, exitCode } = await access.runYtDlpForVideo(
        siteOf(url),
        videoId,
        {
          executable: this.options.executable,
          args,
          timeoutMs: timeoutMs + programTimeoutMarginMs,
          signal: run.signal,
        },
        [refusedByFilter],
      ));
    } finally {
      watch.end();
      signal?.removeEventListener("abort", onAbort);
    }
    if (exitCode === refusedByFilter && limits !== undefined) {
      throw new BoundExceeded(
        limits.length.code,
        `The platform gives the video a length past ${limits.length.named}; nothing was downloaded or charged.`,
      );
    }
    const written = (await readdir(folder)).find((name) => name.startsWith(`${stem}.`));
    if (written === undefined) {
      // With these arguments yt-dlp ends well without writing the file only when --max-filesize refused
      // the size the server announced (a refusal it says nothing of under --dump-json).
      if (exitCode === 0 && limits !== undefined) {
        throw new BoundExceeded(
          "video_unavailable",
          `The platform announced audio larger than ${inMegabytes(limits.maxBytes)}, the most ${limits.length.named} may take at ${limits.kilobitsPerSecond} kbit/s; nothing was downloaded or charged.`,
        );
      }
      throw unavailable(`yt-dlp wrote no audio file for ${videoId}.`);
    }
    return { path: join(folder, written), durationSeconds: durationOf(stdout) };
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
