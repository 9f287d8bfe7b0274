// Captions through yt-dlp: it reads the video's caption tracks (it follows YouTube's changes within days),
// vidrows chooses one by the youtube source's rules, and yt-dlp downloads that one with its own cookies,
// impersonation and proxy; the file is read here as the youtube source reads its own, so transcripts match.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CaptionCue, Transcript } from "../domain/transcript.js";
import { accessArguments, type AttemptAccess, PlatformAccess } from "../platforms/platform-access.js";
import { PlatformError, platformUnavailable as unavailable } from "../platforms/platform-error.js";
import type { ProgramOutput } from "../platforms/programs.js";
import { youtubeSite } from "../platforms/sites.js";
import { newWorkFolder } from "../platforms/work-folders.js";
import { tracksLeftOut, ytDlpWarnedFailure } from "../platforms/ytdlp-failures.js";
import { readYtDlpMessages, type YtDlpMessages } from "../platforms/ytdlp-messages.js";
import { CaptionFormatError } from "./caption-format-error.js";
import { cuesDurationSeconds, parseCaptions } from "./caption-formats.js";
import type { CaptionSource, FetchTranscriptOptions } from "./caption-source.js";
import { needsProofOfOrigin } from "./proof-of-origin.js";
import { assertVideoId } from "./video-id.js";
import { chooseYtDlpTrack, readYtDlpInfo, type YtDlpInfo, type YtDlpTrack } from "./ytdlp-info.js";
import { spokenLanguageFromPages } from "./ytdlp-player-pages.js";
import { infoForTrack, subtitleRunArguments, writtenSubtitle } from "./ytdlp-subtitle-run.js";

export const defaultYtDlpTimeoutSeconds = 60;

export interface YtDlpSourceOptions {
  /** The executable's path, as found at start-up (see platforms/executables.ts). */
  readonly executable: string;
  /** The longest one yt-dlp run may take before it is killed. */
  readonly timeoutMs?: number;
  /** The process's proxies, pace and cookies, shared with everything else that asks the platform. */
  readonly access?: PlatformAccess;
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
  access: AttemptAccess = {},
  sleepArguments: readonly string[] = [],
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
    ...sleepArguments,
    ...accessArguments(access),
    "--",
    watchUrl,
  ];
}

/**
 * The availabilities that are facts about the video (yt-dlp's `availability`); `needs_auth` is not among
 * them, since a bot check asks for a sign-in too.
 */
const closedAvailability: Partial<Record<string, string>> = {
  private: "a private video",
  subscriber_only: "for the channel's members only",
  premium_only: "for YouTube Premium members only",
};

export class YtDlpCaptionSource implements CaptionSource {
  private readonly executable: string;
  private readonly timeoutMs: number;
  private readonly access: PlatformAccess;

  constructor(options: YtDlpSourceOptions) {
    this.executable = options.executable;
    this.timeoutMs = options.timeoutMs ?? defaultYtDlpTimeoutSeconds * 1000;
    this.access = options.access ?? new PlatformAccess();
  }

  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    assertVideoId(videoId);
    // One attempt, one exit and one identity for both runs; a folder of its own for the info, the cookies
    // copy and the caption file, removed when the attempt ends.
    const folder = await newWorkFolder("captions");
    try {
      const access = await this.access.ytDlpAttempt(folder);
      const { stdout, stderr } = await this.run(
        ytDlpArguments(`https://www.youtube.com/watch?v=${videoId}`, access, this.access.sleepArguments()),
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
      await writeFile(infoFile, infoForTrack(stdout, choice.track));
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
  ): PlatformError {
    if (why === "left_out") {
      return new PlatformError(
        "captions_unavailable",
        `yt-dlp left out caption tracks of ${videoId} for want of a proof-of-origin token, the wanted one among them.`,
        { sawCaptionTracks: true },
      );
    }
    const warned = ytDlpWarnedFailure(messages, videoId);
    if (warned !== null && warned.retryable) return warned;
    // Releases that say nothing of a private or members-only video still mark its info so.
    const closed = closedAvailability[info.availability ?? ""];
    if (closed !== undefined) return new PlatformError("video_unavailable", `${videoId} is ${closed}.`);
    if (warned !== null) return warned;
    if (info.tracks.length === 0) return new PlatformError("no_captions", `${videoId} has no captions.`);
    const languages = [...new Set(info.tracks.map((t) => t.languageCode))].join(", ");
    return new PlatformError(
      "no_captions",
      `${videoId} has no captions in "${language}" (it has ${languages}).`,
    );
  }

  /** One run of yt-dlp, in the platform's turn; a run that could not finish, or failed, as a PlatformError. */
  private run(
    args: string[],
    videoId: string,
    signal: AbortSignal | undefined,
    cwd?: string,
  ): Promise<ProgramOutput> {
    return this.access.runYtDlpForVideo(youtubeSite, videoId, {
      executable: this.executable,
      args,
      timeoutMs: this.timeoutMs,
      signal,
      cwd,
    });
  }

  /** The chosen track, downloaded by yt-dlp itself and read here. */
  private async trackCues(
    track: YtDlpTrack,
    videoId: string,
    run: { infoFile: string; folder: string; access: AttemptAccess },
    signal: AbortSignal | undefined,
  ): Promise<CaptionCue[]> {
    if (needsProofOfOrigin(new URL(track.url))) {
      throw new PlatformError(
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
      throw new PlatformError(
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
    if (cues.length === 0)
      throw new PlatformError("no_captions", `The captions of ${videoId} have no words.`);
    return cues;
  }
}
