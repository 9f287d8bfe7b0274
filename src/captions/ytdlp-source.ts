// Captions through yt-dlp: it finds the video's caption tracks (it follows YouTube's changes within days),
// and the chosen track is downloaded and read here as the youtube source does, so transcripts match.
import { ProxyAgent } from "undici";
import { CaptionFormatError } from "./caption-format-error.js";
import { cuesDurationSeconds, parseCaptions } from "./caption-formats.js";
import { defaultCaptionTimeoutMs, HttpFailure, httpRequest } from "./caption-http.js";
import {
  type CaptionCue,
  CaptionError,
  type CaptionSource,
  type FetchTranscriptOptions,
  type Transcript,
} from "./caption-source.js";
import { needsProofOfOrigin } from "./proof-of-origin.js";
import { assertVideoId } from "./video-id.js";
import { tracksLeftOut, ytDlpFailure, ytDlpWarnedFailure } from "./ytdlp-errors.js";
import { chooseYtDlpTrack, readYtDlpInfo, type YtDlpInfo, type YtDlpTrack } from "./ytdlp-info.js";
import { readYtDlpMessages, type YtDlpMessages } from "./ytdlp-messages.js";
import { runYtDlp, YtDlpNotRunnable, YtDlpStopped } from "./ytdlp-process.js";

export const defaultYtDlpTimeoutSeconds = 60;

export interface YtDlpSourceOptions {
  /** The executable's path, as found at start-up (see findYtDlp). */
  readonly executable: string;
  /** The longest one yt-dlp run may take before it is killed. */
  readonly timeoutMs?: number;
  /** An http(s) proxy for yt-dlp and for the caption download (VIDROWS_YOUTUBE_PROXY). */
  readonly proxy?: string;
  /** The caption download's own time limit. */
  readonly downloadTimeoutMs?: number;
}

function unavailable(message: string): CaptionError {
  return new CaptionError("captions_unavailable", message);
}

/**
 * What yt-dlp is asked: the video's info as one JSON document, and nothing downloaded. Formats YouTube holds
 * back (many need a token now) would otherwise stop the run, though captions do not need them; with
 * --ignore-no-formats-error yt-dlp then prints the platform's refusals as warnings and exits 0 (read in
 * ytdlp-errors.ts). Asking for subtitles makes it warn of the tracks it left out for want of a token, which
 * it otherwise only says in its debug output.
 */
export function ytDlpArguments(watchUrl: string, proxy: string | undefined): string[] {
  return [
    "--dump-single-json",
    "--skip-download",
    "--no-playlist",
    "--ignore-no-formats-error",
    "--write-subs",
    "--write-auto-subs",
    "--no-progress",
    ...(proxy === undefined ? [] : ["--proxy", proxy]),
    "--",
    watchUrl,
  ];
}

export class YtDlpCaptionSource implements CaptionSource {
  private readonly executable: string;
  private readonly timeoutMs: number;
  private readonly downloadTimeoutMs: number;
  private readonly proxy: string | undefined;
  private readonly proxyAgent: ProxyAgent | undefined;

  constructor(options: YtDlpSourceOptions) {
    this.executable = options.executable;
    this.timeoutMs = options.timeoutMs ?? defaultYtDlpTimeoutSeconds * 1000;
    this.downloadTimeoutMs = options.downloadTimeoutMs ?? defaultCaptionTimeoutMs;
    this.proxy = options.proxy || undefined;
    this.proxyAgent = this.proxy === undefined ? undefined : new ProxyAgent(this.proxy);
  }

  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    assertVideoId(videoId);
    const { stdout, stderr } = await this.run(videoId, options.signal);
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
    const choice = chooseYtDlpTrack(info, options.language, leftOut?.manualLanguages ?? null);
    if (choice.track === null) throw this.noTrack(info, videoId, options.language, messages, choice.why);
    const track = choice.track;
    const cues = await this.trackCues(track, videoId, options.signal);
    return {
      cues,
      durationSeconds: info.durationSeconds ?? cuesDurationSeconds(cues),
      language: track.languageCode,
    };
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

  /** Lets go of the proxy's connections. */
  async close(): Promise<void> {
    await this.proxyAgent?.close();
  }

  private async run(videoId: string, signal: AbortSignal | undefined) {
    let output: Awaited<ReturnType<typeof runYtDlp>>;
    try {
      output = await runYtDlp({
        executable: this.executable,
        args: ytDlpArguments(`https://www.youtube.com/watch?v=${videoId}`, this.proxy),
        timeoutMs: this.timeoutMs,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof YtDlpStopped) throw unavailable(`${error.message} for ${videoId}; it was killed.`);
      if (error instanceof YtDlpNotRunnable) {
        // Gone since start-up (an upgrade in progress, a removed package): fixable without touching the video.
        throw unavailable(
          `${error.message}; install yt-dlp or point VIDROWS_YTDLP_PATH at it (see the README).`,
        );
      }
      throw error;
    }
    if (output.exitCode !== 0) throw ytDlpFailure(output.exitCode, output.stderr, videoId);
    return output;
  }

  private async trackCues(
    track: YtDlpTrack,
    videoId: string,
    signal: AbortSignal | undefined,
  ): Promise<CaptionCue[]> {
    if (needsProofOfOrigin(new URL(track.url))) {
      throw new CaptionError(
        "captions_unavailable",
        `The captions of ${videoId} need a proof-of-origin token that yt-dlp did not add.`,
        { sawCaptionTracks: true },
      );
    }
    let text: string;
    try {
      const answer = await httpRequest({
        url: track.url,
        timeoutMs: this.downloadTimeoutMs,
        signal,
        dispatcher: this.proxyAgent,
      });
      if (answer.status < 200 || answer.status > 299) {
        throw unavailable(`The captions of ${videoId} (${track.key}) answered HTTP ${answer.status}.`);
      }
      text = answer.text;
    } catch (error) {
      if (error instanceof HttpFailure) throw unavailable(`The captions of ${videoId}: ${error.message}.`);
      throw error;
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
