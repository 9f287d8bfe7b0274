// A video of another platform than YouTube, read through yt-dlp from the page it was submitted as: which
// video it is (yt-dlp's extractor and id, its page, its length) and its captions where the platform has
// them, the track chosen by the youtube source's rules (the asked language, written before automatic, else
// the spoken one). Through the process's platform access: the same proxies as YouTube's, and the pace of the
// page's own site.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CaptionCue, Transcript } from "../domain/transcript.js";
import { accessArguments, type AttemptAccess, PlatformAccess } from "../platforms/platform-access.js";
import { PlatformError, platformUnavailable as unavailable } from "../platforms/platform-error.js";
import type { ProgramOutput } from "../platforms/programs.js";
import { siteOf } from "../platforms/sites.js";
import { newWorkFolder } from "../platforms/work-folders.js";
import { ytDlpWarnedFailure } from "../platforms/ytdlp-failures.js";
import { readYtDlpMessages } from "../platforms/ytdlp-messages.js";
import { CaptionFormatError } from "./caption-format-error.js";
import { cuesDurationSeconds, parseCaptions } from "./caption-formats.js";
import { chooseYtDlpTrack, readYtDlpInfo, type YtDlpInfo, type YtDlpTrack } from "./ytdlp-info.js";
import { infoForTrack, subtitleRunArguments, writtenSubtitle } from "./ytdlp-subtitle-run.js";

export interface PageSourceOptions {
  readonly executable: string;
  /** The longest one yt-dlp run may take before it is killed (60 s unless set). */
  readonly timeoutMs?: number;
  /** The process's proxies, paces and cookies, shared with everything else that asks a site. */
  readonly access?: PlatformAccess;
}

/** What reading a page found: the video, and its captions or why there are none. */
export interface PageRead {
  /** yt-dlp's name for the extractor that read the page ("Vimeo", "TikTok", "Generic"). */
  readonly extractorKey: string;
  /** The platform's id of the video. */
  readonly id: string;
  /** The video's page: yt-dlp's, else the URL it was given. */
  readonly pageUrl: string;
  /** Its captions, or null with `noCaptions` saying why, given the id the video goes by now. */
  readonly transcript: Transcript | null;
  readonly noCaptions: (videoId: string) => string;
}

/** The run that reads the page: its info as one JSON document, nothing downloaded. */
export function pageInfoArguments(url: string, access: AttemptAccess): string[] {
  return [
    "--dump-single-json",
    "--skip-download",
    "--no-playlist",
    "--ignore-no-formats-error",
    "--no-progress",
    ...accessArguments(access),
    "--",
    url,
  ];
}

/**
 * The info of the one video a page holds. A page of several (a post with two videos) is printed as a
 * playlist: its first video is the one read; "empty" when the page holds none.
 */
function singleVideoInfo(stdout: string): { text: string; info: YtDlpInfo } | "empty" | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return null;
  }
  const record = parsed as { _type?: unknown; entries?: unknown } | null;
  if (record?._type === "playlist") {
    const first = Array.isArray(record.entries) ? (record.entries as unknown[])[0] : undefined;
    if (first === undefined || first === null) return "empty";
    const text = JSON.stringify(first);
    const info = readYtDlpInfo(text);
    return info === null ? null : { text, info };
  }
  const info = readYtDlpInfo(stdout);
  return info === null ? null : { text: stdout, info };
}

export class YtDlpPageSource {
  private readonly timeoutMs: number;
  private readonly access: PlatformAccess;

  constructor(private readonly options: PageSourceOptions) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.access = options.access ?? new PlatformAccess();
  }

  /**
   * Reads the page at `url` (`label` names the video in messages), and its captions unless `captions` is
   * false. Throws a PlatformError: a page nothing reads, or a video gone, is `video_unavailable`; a refusal
   * or a failure that may pass is retryable.
   */
  async read(
    url: string,
    label: string,
    options: { language?: string; signal?: AbortSignal; captions?: boolean } = {},
  ): Promise<PageRead> {
    const folder = await newWorkFolder("page");
    const site = siteOf(url);
    try {
      const access = await this.access.ytDlpAttempt(folder);
      const run = (args: string[]) => this.run(site, args, label, options.signal);
      const { stdout, stderr } = await run(pageInfoArguments(url, access));
      const messages = readYtDlpMessages(stderr);
      const single = singleVideoInfo(stdout);
      if (single === "empty")
        throw new PlatformError("video_unavailable", `The page of ${label} holds no video.`);
      if (single === null || single.info.id === null || single.info.extractorKey === null) {
        throw (
          ytDlpWarnedFailure(messages, label) ?? unavailable(`yt-dlp printed no video info for ${label}.`)
        );
      }
      const { info } = single;
      const read = {
        extractorKey: info.extractorKey as string,
        id: info.id as string,
        pageUrl: info.webpageUrl ?? url,
      };
      // Captions not asked for (the job transcribes whatever they are): the page is read for its video only.
      if (options.captions === false) return { ...read, transcript: null, noCaptions: () => "" };
      const choice = chooseYtDlpTrack(info, options.language);
      if (choice.track === null) {
        const languages = [...new Set(info.tracks.map((t) => t.languageCode))].join(", ");
        const noCaptions = (videoId: string) =>
          info.tracks.length === 0
            ? `${videoId} has no captions.`
            : `${videoId} has no captions in "${options.language}" (it has ${languages}).`;
        return { ...read, transcript: null, noCaptions };
      }
      const infoFile = join(folder, "info.json");
      await writeFile(infoFile, infoForTrack(single.text, choice.track));
      const cues = await this.trackCues(choice.track, label, { infoFile, folder, access }, run);
      const transcript: Transcript = {
        cues,
        durationSeconds: info.durationSeconds ?? cuesDurationSeconds(cues),
        language: choice.track.languageCode,
      };
      return { ...read, transcript, noCaptions: () => "" };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** One run of yt-dlp, in the site's turn; a run that could not finish, or failed, as a PlatformError. */
  private run(
    site: string,
    args: string[],
    label: string,
    signal: AbortSignal | undefined,
  ): Promise<ProgramOutput> {
    return this.access.runYtDlpForVideo(site, label, {
      executable: this.options.executable,
      args,
      timeoutMs: this.timeoutMs,
      signal,
    });
  }

  /** The chosen track, downloaded by yt-dlp from the info of the first run, and read here. */
  private async trackCues(
    track: YtDlpTrack,
    label: string,
    files: { infoFile: string; folder: string; access: AttemptAccess },
    run: (args: string[]) => Promise<ProgramOutput>,
  ): Promise<CaptionCue[]> {
    const { stderr } = await run(subtitleRunArguments(files.infoFile, track, files.folder, files.access));
    const text = await writtenSubtitle(files.folder, track);
    if (text === null) {
      throw (
        ytDlpWarnedFailure(readYtDlpMessages(stderr), label) ??
        unavailable(`yt-dlp wrote no caption file for ${label} (${track.key}).`)
      );
    }
    try {
      return parseCaptions(text, track.format);
    } catch (error) {
      if (!(error instanceof CaptionFormatError)) throw error;
      throw unavailable(`Unreadable captions for ${label}: ${error.message}`);
    }
  }
}
