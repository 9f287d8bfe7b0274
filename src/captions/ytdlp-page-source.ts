// A video of another platform than YouTube, read through yt-dlp from the page it was submitted as: which
// video it is (yt-dlp's extractor and id, its page, its length) and its captions where the platform has
// them, the track chosen by the youtube source's rules (the asked language, written before automatic, else
// the spoken one). Its proxies come from the same pool as YouTube's; its pace is the same interval, kept
// apart from YouTube's, since it is another site's limit.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CaptionFormatError } from "./caption-format-error.js";
import { cuesDurationSeconds, parseCaptions } from "./caption-formats.js";
import { type CaptionCue, CaptionError, type Transcript } from "./caption-source.js";
import { ProxyPool } from "./proxy-pool.js";
import { RequestPacing } from "./request-pacing.js";
import { ytDlpFailure, ytDlpWarnedFailure } from "./ytdlp-errors.js";
import { chooseYtDlpTrack, readYtDlpInfo, type YtDlpInfo, type YtDlpTrack } from "./ytdlp-info.js";
import { readYtDlpMessages } from "./ytdlp-messages.js";
import { runYtDlp, type YtDlpOutput, YtDlpNotRunnable, YtDlpStopped } from "./ytdlp-process.js";
import { accessArguments, subtitleRunArguments, writtenSubtitle } from "./ytdlp-subtitle-run.js";

export interface PageSourceOptions {
  readonly executable: string;
  /** The longest one yt-dlp run may take before it is killed (60 s unless set). */
  readonly timeoutMs?: number;
  readonly proxyPool?: ProxyPool;
  readonly pacing?: RequestPacing;
}

/** What reading a page found: the video, and its captions or why there are none. */
export interface PageRead {
  /** yt-dlp's name for the extractor that read the page ("Vimeo", "TikTok", "Generic"). */
  readonly extractorKey: string;
  /** The platform's id of the video. */
  readonly id: string;
  /** The video's page: yt-dlp's, else the URL it was given. */
  readonly pageUrl: string;
  /** Its captions, or null with `noCaptions` saying why. */
  readonly transcript: Transcript | null;
  readonly noCaptions: string;
}

/** The run that reads the page: its info as one JSON document, nothing downloaded. */
export function pageInfoArguments(url: string, access: { proxy?: string }): string[] {
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

const unavailable = (message: string) => new CaptionError("captions_unavailable", message);

export class YtDlpPageSource {
  private readonly timeoutMs: number;
  private readonly proxies: ProxyPool;
  private readonly pacing: RequestPacing;

  constructor(private readonly options: PageSourceOptions) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.proxies = options.proxyPool ?? new ProxyPool([]);
    this.pacing = options.pacing ?? new RequestPacing(0);
  }

  /**
   * Reads the page at `url` (`label` names the video in messages). Throws a CaptionError: a page nothing
   * reads, or a video gone, is `video_unavailable`; a refusal or a failure that may pass is retryable.
   */
  async read(
    url: string,
    label: string,
    options: { language?: string; signal?: AbortSignal } = {},
  ): Promise<PageRead> {
    const folder = await mkdtemp(join(tmpdir(), "vidrows-yt-dlp-page-"));
    try {
      const access = { proxy: this.proxies.next() };
      const { stdout, stderr } = await this.run(pageInfoArguments(url, access), label, options.signal);
      const messages = readYtDlpMessages(stderr);
      const single = singleVideoInfo(stdout);
      if (single === "empty")
        throw new CaptionError("video_unavailable", `The page of ${label} holds no video.`);
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
      const choice = chooseYtDlpTrack(info, options.language);
      if (choice.track === null) {
        const languages = [...new Set(info.tracks.map((t) => t.languageCode))].join(", ");
        const noCaptions =
          info.tracks.length === 0
            ? `${label} has no captions.`
            : `${label} has no captions in "${options.language}" (it has ${languages}).`;
        return { ...read, transcript: null, noCaptions };
      }
      const infoFile = join(folder, "info.json");
      await writeFile(infoFile, single.text);
      const cues = await this.trackCues(choice.track, label, { infoFile, folder, access }, options.signal);
      const transcript: Transcript = {
        cues,
        durationSeconds: info.durationSeconds ?? cuesDurationSeconds(cues),
        language: choice.track.languageCode,
      };
      return { ...read, transcript, noCaptions: "" };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** One run of yt-dlp, in its turn; a run that could not finish, or failed, as the CaptionError it is. */
  private async run(args: string[], label: string, signal: AbortSignal | undefined): Promise<YtDlpOutput> {
    let output: YtDlpOutput;
    try {
      await this.pacing.turn(signal);
      output = await runYtDlp({
        executable: this.options.executable,
        args,
        timeoutMs: this.timeoutMs,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof YtDlpStopped) throw unavailable(`${error.message} for ${label}; it was killed.`);
      if (error instanceof YtDlpNotRunnable) {
        throw unavailable(`${error.message}; install yt-dlp or point VIDROWS_YTDLP_PATH at it.`);
      }
      throw error;
    }
    if (output.exitCode !== 0) throw ytDlpFailure(output.exitCode, output.stderr, label);
    return output;
  }

  /** The chosen track, downloaded by yt-dlp from the info of the first run, and read here. */
  private async trackCues(
    track: YtDlpTrack,
    label: string,
    run: { infoFile: string; folder: string; access: { proxy?: string } },
    signal: AbortSignal | undefined,
  ): Promise<CaptionCue[]> {
    const { stderr } = await this.run(
      subtitleRunArguments(run.infoFile, track, run.folder, run.access),
      label,
      signal,
    );
    const text = await writtenSubtitle(run.folder, track);
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
