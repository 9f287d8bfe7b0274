// Listing a playlist's or channel's videos through yt-dlp, without creating anything: through the process's
// platform access (the proxies, cookies and per-site pace captions and audio downloads use too), a few runs
// at a time per process, each stopped when the request that wanted it goes away.
import { rm } from "node:fs/promises";
import { FairSlots, QueueFull, type WaitOptions } from "../concurrency/fair-slots.js";
import type { Config } from "../config.js";
import { defaultListingSettings } from "../config/listing-settings.js";
import { readListingSource } from "../domain/listing-sources.js";
import type { OtherPlatforms } from "../domain/submitted-videos.js";
import { ApiError } from "../http/api-errors.js";
import { findProgram } from "../platforms/executables.js";
import { PlatformAccess } from "../platforms/platform-access.js";
import { siteOf } from "../platforms/sites.js";
import { newWorkFolder } from "../platforms/work-folders.js";
import {
  ListingQueueFull,
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
  /** VIDROWS_OTHER_PLATFORMS as this process reads it: which pages besides YouTube's are listed (all if left out). */
  readonly otherPlatforms?: OtherPlatforms;
  /** VIDROWS_LISTING_SLOTS: how many listings one process runs at once; the rest wait their turn. */
  readonly slots?: number;
  /** VIDROWS_LISTING_QUEUE: how many of one workspace's listings may wait for a slot; past it, 429. */
  readonly queuePerWorkspace?: number;
}

/** The listing's settings from the process's: yt-dlp's and the listing slots'. */
export function videoListingSettings(config: Config): VideoListingSettings {
  return {
    ytDlpPath: config.ytDlpPath,
    timeoutSeconds: config.ytDlpTimeoutSeconds,
    slots: config.listings?.slots,
    queuePerWorkspace: config.listings?.queuePerWorkspace,
  };
}

/** How long a workspace whose listing queue is full is asked to wait (`Retry-After`): about one short listing. */
export const listingQueueRetryAfterSeconds = 10;

const defaultTimeoutSeconds = 60;
// A flat listing of 1001 videos is well under a megabyte; more is not a listing.
const maxListingBytes = 16 * 1024 * 1024;

export class VideoListings {
  /** The process's listing slots, shared fairly between the workspaces that have listings waiting. */
  readonly slots: FairSlots;
  private readonly timeoutMs: number;

  constructor(
    private readonly settings: VideoListingSettings = {},
    private readonly access: PlatformAccess = new PlatformAccess(),
  ) {
    this.slots = new FairSlots(
      settings.slots ?? defaultListingSettings.slots,
      settings.queuePerWorkspace ?? defaultListingSettings.queuePerWorkspace,
    );
    this.timeoutMs = (settings.timeoutSeconds ?? defaultTimeoutSeconds) * 1000;
  }

  private executable(): string {
    try {
      return findProgram("yt-dlp", this.settings.ytDlpPath, "Listing");
    } catch {
      throw listingUnavailable(
        this.settings.ytDlpPath
          ? "VIDROWS_YTDLP_PATH does not name an executable file."
          : "there is no yt-dlp on the server's PATH.",
      );
    }
  }

  /** One listing run of yt-dlp in the site's turn, with the attempt's proxy and cookies copy. */
  private async run(url: string, limit: number, executable: string, folder: string, signal?: AbortSignal) {
    const args = listingArguments(url, limit, {
      access: await this.access.ytDlpAttempt(folder),
      sleepArguments: this.access.sleepArguments(),
    });
    return this.access.runYtDlp(siteOf(url), {
      executable,
      args,
      timeoutMs: this.timeoutMs,
      signal,
      maxStdoutBytes: maxListingBytes,
    });
  }

  /**
   * The first `limit` videos `from` lists, and whether there are more, in one of the process's listing
   * slots in `workspaceId`'s turn; a 400 naming `from` for a bad one, a 429 when the workspace already has
   * as many listings waiting as it may. `wait.signal` stops the listing, waiting or running.
   */
  async list(
    workspaceId: string,
    from: string,
    limit: number,
    wait: WaitOptions = {},
  ): Promise<VideoListing> {
    const reading = readListingSource(from, this.settings.otherPlatforms ?? "any");
    if (!reading.ok) throw new ApiError("invalid_request", `\`from\` ${reading.problem}.`, "from");
    const source = reading.source;
    const executable = this.executable();
    try {
      return await this.slots.run(
        workspaceId,
        () => this.listNow(source.url, limit, executable, wait.signal),
        wait,
      );
    } catch (error) {
      if (error instanceof QueueFull)
        throw new ListingQueueFull(error.waiting, listingQueueRetryAfterSeconds);
      throw error;
    }
  }

  /** One listing, in a slot already held. */
  private async listNow(url: string, limit: number, executable: string, signal?: AbortSignal) {
    const folder = await newWorkFolder("listing");
    try {
      const output = await this.run(url, limit, executable, folder, signal).catch((error: unknown) => {
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
      await rm(folder, { recursive: true, force: true });
    }
  }
}
