// A video's audio through yt-dlp: audio only, the smallest format the platform offers (speech needs no
// more), through the same proxies and at the same pace as the captions sources.
import { copyFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { CaptionError } from "../captions/caption-source.js";
import { type ProxyPool } from "../captions/proxy-pool.js";
import { type RequestPacing } from "../captions/request-pacing.js";
import { ytDlpFailure } from "../captions/ytdlp-errors.js";
import { runYtDlp, YtDlpNotRunnable, YtDlpStopped } from "../captions/ytdlp-process.js";
import { accessArguments } from "../captions/ytdlp-subtitle-run.js";
import type { AudioLimits } from "../domain/media-bounds.js";

export interface DownloadedAudio {
  readonly path: string;
  /** The video's length as the platform gives it, when it does. */
  readonly durationSeconds: number | undefined;
}

/** The port the speech-to-text flow downloads through; a test may put anything behind it. */
export interface AudioSource {
  /**
   * Writes the audio of the video at `url` into `folder`, stopping past `limits`; throws a CaptionError
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
  readonly proxyPool: ProxyPool;
  readonly pacing: RequestPacing;
  readonly cookiesFile?: string;
  /** A download takes longer than reading captions: 15 minutes unless set. */
  readonly timeoutMs?: number;
}

const stem = "audio";

/**
 * The command line: the info printed as JSON (its duration) and the download done too (--no-simulate);
 * `wa/w` is the smallest audio-only format, else the smallest with audio at all.
 */
export function audioDownloadArguments(
  url: string,
  folder: string,
  access: { proxy?: string; cookiesFile?: string },
) {
  return [
    "--dump-json",
    "--no-simulate",
    "--no-playlist",
    "--no-progress",
    "--no-part",
    "-f",
    "wa/w",
    "-o",
    join(folder, `${stem}.%(ext)s`),
    ...accessArguments(access),
    "--",
    url,
  ];
}

function unavailable(message: string): CaptionError {
  return new CaptionError("captions_unavailable", message);
}

export class YtDlpAudioSource implements AudioSource {
  constructor(private readonly options: YtDlpAudioSourceOptions) {}

  async download(url: string, videoId: string, folder: string, signal: AbortSignal | undefined) {
    let cookiesFile: string | undefined;
    if (this.options.cookiesFile !== undefined) {
      // yt-dlp writes cookies back: a copy of its own, inside the folder that is removed afterwards.
      cookiesFile = join(folder, "cookies.txt");
      await copyFile(this.options.cookiesFile, cookiesFile);
    }
    const args = audioDownloadArguments(url, folder, { proxy: this.options.proxyPool.next(), cookiesFile });
    let output;
    try {
      await this.options.pacing.turn(signal);
      output = await runYtDlp({
        executable: this.options.executable,
        args,
        timeoutMs: this.options.timeoutMs ?? 15 * 60_000,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof YtDlpStopped || error instanceof YtDlpNotRunnable) {
        throw unavailable(`Downloading the audio of ${videoId}: ${error.message}.`);
      }
      throw error;
    }
    if (output.exitCode !== 0) throw ytDlpFailure(output.exitCode, output.stderr, videoId);
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
