// Listing a playlist's or channel's videos through yt-dlp, without creating anything: paced and through
// the proxies as the captions sources are, a few runs at a time per process, each stopped when the
// request that wanted it goes away.
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseYouTubeProxySetting } from "../captions/create-caption-source.js";
import { ProxyPool } from "../captions/proxy-pool.js";
import { RequestPacing } from "../captions/request-pacing.js";
import { findYtDlp } from "../captions/ytdlp-executable.js";
import { runYtDlp } from "../captions/ytdlp-process.js";
import { Semaphore } from "../concurrency/semaphore.js";
import type { Config } from "../config.js";
import { readListingSource } from "../domain/listing-sources.js";
import type { OtherPlatforms } from "../domain/submitted-videos.js";
import { ApiError } from "../http/api-errors.js";
import {
  listingRunError,
  listingRunFailure,
  listingUnavailable,
  platformRefused,
} from "./listing-failures.js";
import type { VideoListing } from "./listing-schemas.js";
import { listingArguments, readListingOutput } from "./ytdlp-listing.js";

export interface VideoListingSettings {
  /** VIDROWS_YTDLP_PATH; unset, `yt-dlp` on PATH, looked up at each listing (so installing it needs no restart). */
  readonly ytDlpPath?: string;
  /** VIDROWS_YTDLP_TIMEOUT_SECONDS: how long one listing may take (60 s unless set). */
  readonly timeoutSeconds?: number;
  /** VIDROWS_YOUTUBE_PROXY's proxies, one per run, in turn. */
  readonly proxies?: readonly string[];
  /** VIDROWS_YOUTUBE_COOKIES: a copy per run, as yt-dlp writes cookies back. */
  readonly cookiesFile?: string;
  /** VIDROWS_YOUTUBE_MIN_INTERVAL_MS: between runs, and between the pages of one run. */
  readonly minIntervalMs?: number;
  /** VIDROWS_OTHER_PLATFORMS as this process reads it: which pages besides YouTube's are listed (all if left out). */
  readonly otherPlatforms?: OtherPlatforms;
  /** How many listings one process runs at once; the rest wait their turn. */
  readonly concurrency?: number;
}

/** The listing's settings from the process's: yt-dlp's, and how the captions sources reach the platform. */
export function videoListingSettings(config: Config): VideoListingSettings {
  return {
    ytDlpPath: config.ytDlpPath,
    timeoutSeconds: config.ytDlpTimeoutSeconds,
    proxies: parseYouTubeProxySetting(config.youtubeProxy),
    cookiesFile: config.captionsAccess?.youtubeCookiesFile,
    minIntervalMs: config.captionsAccess?.youtubeMinIntervalMs,
  };
}

const defaultTimeoutSeconds = 60;
const defaultConcurrency = 4;
// A flat listing of 1001 videos is well under a megabyte; more is not a listing.
const maxListingBytes = 16 * 1024 * 1024;

export class VideoListings {
  private readonly proxies: ProxyPool;
  private readonly pacing: RequestPacing;
  private readonly runs: Semaphore;
  private readonly timeoutMs: number;

  constructor(private readonly settings: VideoListingSettings = {}) {
    this.proxies = new ProxyPool(settings.proxies ?? []);
    this.pacing = new RequestPacing(settings.minIntervalMs ?? 0);
    this.runs = new Semaphore(settings.concurrency ?? defaultConcurrency);
    this.timeoutMs = (settings.timeoutSeconds ?? defaultTimeoutSeconds) * 1000;
  }

  private executable(): string {
    try {
      return findYtDlp(this.settings.ytDlpPath);
    } catch {
      throw listingUnavailable(
        this.settings.ytDlpPath
          ? "VIDROWS_YTDLP_PATH does not name an executable file."
          : "there is no yt-dlp on the server's PATH.",
      );
    }
  }

  /** The first `limit` videos `from` lists, and whether there are more; a 400 naming `from` for a bad one. */
  async list(from: string, limit: number, signal?: AbortSignal): Promise<VideoListing> {
    const reading = readListingSource(from, this.settings.otherPlatforms ?? "any");
    if (!reading.ok) throw new ApiError("invalid_request", `\`from\` ${reading.problem}.`, "from");
    const source = reading.source;
    const executable = this.executable();
    return this.runs.run(async () => {
      await this.pacing.turn(signal);
      const folder = this.settings.cookiesFile ? await mkdtemp(join(tmpdir(), "vidrows-listing-")) : null;
      try {
        let cookiesFile: string | undefined;
        if (folder !== null && this.settings.cookiesFile) {
          cookiesFile = join(folder, "cookies.txt");
          await copyFile(this.settings.cookiesFile, cookiesFile);
        }
        const args = listingArguments(source.url, limit, {
          proxy: this.proxies.next(),
          cookiesFile,
          sleepSeconds: this.pacing.minIntervalMs / 1000,
        });
        const output = await runYtDlp({
          executable,
          args,
          timeoutMs: this.timeoutMs,
          signal,
          maxStdoutBytes: maxListingBytes,
        }).catch((error: unknown) => {
          throw listingRunError(error);
        });
        if (output.exitCode !== 0) throw listingRunFailure(output.exitCode, output.stderr);
        const read = readListingOutput(output.stdout, limit);
        if (read.kind === "one-video") {
          throw new ApiError(
            "invalid_request",
            "`from` is the address of one video, not of a playlist or channel; send it in a job's `videos` instead.",
            "from",
          );
        }
        if (read.kind === "unreadable") throw platformRefused("yt-dlp printed no listing it could read");
        return { data: read.videos, has_more: read.hasMore };
      } finally {
        if (folder !== null) await rm(folder, { recursive: true, force: true });
      }
    });
  }
}
