// Captions through yt-dlp: it reads the video's caption tracks (it follows YouTube's changes within days),
// vidrows chooses one by the youtube source's rules, and yt-dlp downloads that one with its own cookies,
// impersonation and proxy; the file is read here as the youtube source reads its own, so transcripts match.
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CaptionFormatError } from "./caption-format-error.js";
import { cuesDurationSeconds, parseCaptions } from "./caption-formats.js";
import {
  type CaptionCue,
  CaptionError,
  type CaptionSource,
  type FetchTranscriptOptions,
  type Transcript,
} from "./caption-source.js";
import { needsProofOfOrigin } from "./proof-of-origin.js";
import { ProxyPool } from "./proxy-pool.js";
import { RequestPacing } from "./request-pacing.js";
import { assertVideoId } from "./video-id.js";
import { tracksLeftOut, ytDlpFailure, ytDlpWarnedFailure } from "./ytdlp-errors.js";
import { chooseYtDlpTrack, readYtDlpInfo, type YtDlpInfo, type YtDlpTrack } from "./ytdlp-info.js";
import { readYtDlpMessages, type YtDlpMessages } from "./ytdlp-messages.js";
import { spokenLanguageFromPages } from "./ytdlp-player-pages.js";
import { runYtDlp, type YtDlpOutput, YtDlpNotRunnable, YtDlpStopped } from "./ytdlp-process.js";
import {
  accessArguments,
  subtitleRunArguments,
  type YtDlpAccess,
  writtenSubtitle,
} from "./ytdlp-subtitle-run.js";

export const defaultYtDlpTimeoutSeconds = 60;

export interface YtDlpSourceOptions {
  /** The executable's path, as found at start-up (see findYtDlp). */
  readonly executable: string;
  /** The longest one yt-dlp run may take before it is killed. */
  readonly timeoutMs?: number;
  /** The proxies of VIDROWS_YOUTUBE_PROXY, shared with the other sources of the process; one per attempt. */
  readonly proxyPool?: ProxyPool;
  /** One proxy for every attempt: a pool of one of this source's own. */
  readonly proxy?: string;
  /** VIDROWS_YOUTUBE_COOKIES: handed to yt-dlp (a copy per attempt) with --cookies. */
  readonly cookiesFile?: string;
  /** VIDROWS_YOUTUBE_MIN_INTERVAL_MS, shared with the other sources of the process. */
  readonly pacing?: RequestPacing;
}

function unavailable(message: string): CaptionError {
  return new CaptionError("captions_unavailable", message);
}

/**
 * What the first run asks: the video's info as one JSON document, and nothing downloaded. Formats YouTube
 * holds back (many need a token now) would otherwise stop the run, though captions do not need them; with
 * --ignore-no-formats-error yt-dlp then prints the platform's refusals as warnings and exits 0 (read in
 * ytdlp-errors.ts). Asking for subtitles makes it warn of the tracks it left out for want of a token, which
 * it otherwise only says in its debug output; --dump-single-json keeps it from writing any.
 */
export function ytDlpArguments(
  watchUrl: string,
  access: YtDlpAccess & { sleepSeconds?: number } = {},
): string[] {
  return [
    "--dump-single-json",
    "--skip-download",
    "--no-playlist",
    "--ignore-no-formats-error",
    "--write-subs",
    "--write-auto-subs",
    "--no-progress",
    // The player answers, saved into the attempt's folder, tell the video's language (ytdlp-player-pages.ts).
    "--write-pages",
    ...(access.sleepSeconds ? ["--sleep-requests", String(access.sleepSeconds)] : []),
    ...accessArguments(access),
    "--",
    watchUrl,
  ];
}

export class YtDlpCaptionSource implements CaptionSource {
  private readonly executable: string;
  private readonly timeoutMs: number;
  private readonly proxies: ProxyPool;
  private readonly cookiesFile: string | undefined;
  private readonly pacing: RequestPacing;

  constructor(options: YtDlpSourceOptions) {
    this.executable = options.executable;
    this.timeoutMs = options.timeoutMs ?? defaultYtDlpTimeoutSeconds * 1000;
    this.proxies = options.proxyPool ?? new ProxyPool(options.proxy ? [options.proxy] : []);
    this.cookiesFile = options.cookiesFile || undefined;
    this.pacing = options.pacing ?? new RequestPacing(0);
  }

  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    assertVideoId(videoId);
    // One attempt, one exit and one identity for both runs; a folder of its own for the info, the cookies
    // copy and the caption file, removed when the attempt ends.
    const folder = await mkdtemp(join(tmpdir(), "vidrows-yt-dlp-"));
    try {
      const access: YtDlpAccess = {
        proxy: this.proxies.next(),
        cookiesFile: await this.cookiesCopy(folder),
      };
      const { stdout, stderr } = await this.run(
        ytDlpArguments(`https://www.youtube.com/watch?v=${videoId}`, {
          ...access,
          sleepSeconds: this.pacing.minIntervalMs / 1000,
        }),
        videoId,
        options.signal,
        folder,
      );
      const messages = readYtDlpMessages(stderr);
      const info = readYtDlpInfo(stdout);
      if (info === null) {
        throw (
          ytDlpWarnedFailure(messages, videoId) ?? unavailable(`yt-dlp printed no video info for ${videoId}.`)
        );
      }
      if (info.id !== null && info.id !== videoId) {
        throw unavailable(`yt-dlp answered with video ${info.id} when asked for ${videoId}.`);
      }
      const leftOut = tracksLeftOut(messages);
      const playerLanguage = await spokenLanguageFromPages(folder, videoId);
      const choice = chooseYtDlpTrack(
        info,
        options.language,
        leftOut?.manualLanguages ?? null,
        playerLanguage,
      );
      if (choice.track === null) throw this.noTrack(info, videoId, options.language, messages, choice.why);
      const infoFile = join(folder, "info.json");
      await writeFile(infoFile, stdout);
      const cues = await this.trackCues(choice.track, videoId, { infoFile, folder, access }, options.signal);
      return {
        cues,
        durationSeconds: info.durationSeconds ?? cuesDurationSeconds(cues),
        language: choice.track.languageCode,
      };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** Nothing is held between attempts. */
  async close(): Promise<void> {}

  /** A copy of the cookies file for this attempt's runs, which write their cookies back into it. */
  private async cookiesCopy(folder: string): Promise<string | undefined> {
    if (this.cookiesFile === undefined) return undefined;
    const copy = join(folder, "cookies.txt");
    try {
      await copyFile(this.cookiesFile, copy);
    } catch (error) {
      throw unavailable(
        `The cookies file (VIDROWS_YOUTUBE_COOKIES) cannot be read: ${(error as NodeJS.ErrnoException).code}.`,
      );
    }
    return copy;
  }

  /**
   * Why no track was read. A playability reason yt-dlp printed as a warning (it exits 0 under
   * --ignore-no-formats-error) or tracks it left out for want of a token come first: only a track list read
   * from a playable video and found wanting is no_captions.
   */
  private noTrack(
    info: YtDlpInfo,
    videoId: string,
    language: string | undefined,
    messages: YtDlpMessages,
    why: "none_in_language" | "left_out",
  ): CaptionError {
    if (why === "left_out") {
      return new CaptionError(
        "captions_unavailable",
        `yt-dlp left out caption tracks of ${videoId} for want of a proof-of-origin token, the wanted one among them.`,
        { sawCaptionTracks: true },
      );
    }
    const warned = ytDlpWarnedFailure(messages, videoId);
    if (warned !== null) return warned;
    if (info.tracks.length === 0) return new CaptionError("no_captions", `${videoId} has no captions.`);
    const languages = [...new Set(info.tracks.map((t) => t.languageCode))].join(", ");
    return new CaptionError(
      "no_captions",
      `${videoId} has no captions in "${language}" (it has ${languages}).`,
    );
  }

  /** One run of yt-dlp, in its turn; a run that could not finish, or failed, as the CaptionError it is. */
  private async run(
    args: string[],
    videoId: string,
    signal: AbortSignal | undefined,
    cwd?: string,
  ): Promise<YtDlpOutput> {
    let output: YtDlpOutput;
    try {
      await this.pacing.turn(signal);
      output = await runYtDlp({ executable: this.executable, args, timeoutMs: this.timeoutMs, signal, cwd });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof YtDlpStopped) throw unavailable(`${error.message} for ${videoId}; it was killed.`);
      if (error instanceof YtDlpNotRunnable) {
        // Gone since start-up (an upgrade in progress, a removed package): fixable without touching the video.
        throw unavailable(
          `${error.message}; install yt-dlp or point VIDROWS_YTDLP_PATH at it (see docs/captions-and-transcription.md).`,
        );
      }
      throw error;
    }
    if (output.exitCode !== 0) throw ytDlpFailure(output.exitCode, output.stderr, videoId);
    return output;
  }

  /** The chosen track, downloaded by yt-dlp itself and read here. */
  private async trackCues(
    track: YtDlpTrack,
    videoId: string,
    run: { infoFile: string; folder: string; access: YtDlpAccess },
    signal: AbortSignal | undefined,
  ): Promise<CaptionCue[]> {
    if (needsProofOfOrigin(new URL(track.url))) {
      throw new CaptionError(
        "captions_unavailable",
        `The captions of ${videoId} need a proof-of-origin token that yt-dlp did not add.`,
        { sawCaptionTracks: true },
      );
    }
    const { stderr } = await this.run(
      subtitleRunArguments(run.infoFile, track, run.folder, run.access),
      videoId,
      signal,
    );
    const text = await writtenSubtitle(run.folder, track);
    if (text === null) {
      throw (
        ytDlpWarnedFailure(readYtDlpMessages(stderr), videoId) ??
        unavailable(`yt-dlp wrote no caption file for ${videoId} (${track.key}).`)
      );
    }
    if (text.trim() === "") {
      throw new CaptionError(
        "captions_unavailable",
        `Empty captions for ${videoId} (a proof-of-origin token is missing).`,
        { sawCaptionTracks: true },
      );
    }
    let cues: CaptionCue[];
    try {
      cues = parseCaptions(text, track.format);
    } catch (error) {
      if (!(error instanceof CaptionFormatError)) throw error;
      throw unavailable(`Unreadable captions for ${videoId}: ${error.message}`);
    }
    if (cues.length === 0) throw new CaptionError("no_captions", `The captions of ${videoId} have no words.`);
    return cues;
  }
}
