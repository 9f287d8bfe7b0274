// A video's words, for the worker: a YouTube video's captions from the configured source, a video of another
// platform read through yt-dlp from the page it was submitted as (which also names it: `<platform>:<id>`),
// or either's audio transcribed, as the job's `transcribe` says.
import { type CaptionSource } from "../captions/caption-source.js";
import { PlatformError } from "../platforms/platform-error.js";
import { type Transcript } from "../domain/transcript.js";
import type { PageRead, YtDlpPageSource } from "../captions/ytdlp-page-source.js";
import { type Backoff, backoffDelay } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";
import { parsePlatformVideoId, videoIdOfRead } from "../domain/platform-video-ids.js";
import { type CaptionsFound, transcribesAudio } from "../domain/transcribe-mode.js";
import { unresolvedPlatform } from "../domain/submitted-videos.js";
import { uploadIdOf } from "../domain/upload-videos.js";
import { videoPageUrl } from "../domain/video-references.js";
import { captionFetches } from "../metrics.js";
import type { Store } from "../store/database.js";
import { openStored } from "../store/sealed-values.js";
import type { SpeechToText } from "../transcription/speech-to-text.js";
import { TranscriptionError } from "../transcription/transcriber.js";
import type { ClaimedVideo } from "./claims.js";
import type { PageIdentity } from "./video-outcomes.js";
import { type UploadFiles, UploadWords } from "./upload-words.js";
import type { VideoBounds } from "./video-bounds.js";

export interface VideoTranscriptsOptions {
  readonly store: Store;
  readonly captions: CaptionSource;
  /** Transcribes a video's audio when it has no usable captions; undefined when not configured. */
  readonly speechToText?: SpeechToText;
  /** Reads the pages of other platforms; undefined where yt-dlp is not found or they are turned off. */
  readonly pages?: YtDlpPageSource;
  /** Attempts at a retryable captions failure before the video fails with it. */
  readonly captionAttempts?: number;
  /** First back-off between captions attempts; doubles each time. */
  readonly retryBaseMs?: number;
  /** The caption source's name in the metrics (`youtube`, `dir`, `url`...). */
  readonly captionSourceName?: string;
  /** The bounds a video's audio is downloaded within. */
  readonly bounds: VideoBounds;
  /** The uploads jobs took (`upload:<upload_id>` videos); undefined in a worker that reads none. */
  readonly uploads?: UploadFiles;
}

export interface VideoWords {
  readonly transcript: Transcript;
  readonly transcribed: boolean;
}

export class VideoTranscripts {
  private readonly uploads: UploadWords | undefined;

  constructor(private readonly options: VideoTranscriptsOptions) {
    const files = options.uploads;
    this.uploads = files === undefined ? undefined : new UploadWords({ ...options, files });
  }

  /**
   * The video's words: its captions, or its audio transcribed when the job says `always`, or says `auto`
   * (the default) and the video has no usable captions. `named` is told who a video of another platform is
   * as soon as its page is read, so that a video failing after that still settles under its own id.
   */
  async wordsOf(
    video: ClaimedVideo,
    signal: AbortSignal,
    named: (identity: PageIdentity) => void = () => {},
  ): Promise<VideoWords> {
    const uploadId = uploadIdOf(video.videoId);
    if (uploadId !== null) {
      if (this.uploads === undefined) {
        throw new PlatformError("video_unavailable", "This worker reads no uploaded files.");
      }
      return this.uploads.wordsOf(video, uploadId, signal);
    }
    if (parsePlatformVideoId(video.videoId) !== null) return this.pageWordsOf(video, signal, named);
    const page = videoPageUrl(video.videoId);
    if (this.transcribes(video, "not_asked")) {
      return { transcript: await this.transcribe(page, video, signal), transcribed: true };
    }
    let transcript: Transcript;
    try {
      transcript = await this.withRetries(signal, () =>
        this.options.captions.fetchTranscript(video.videoId, { language: video.language, signal }),
      );
    } catch (error) {
      const noCaptions = error instanceof PlatformError && error.code === "no_captions";
      if (!noCaptions || !this.transcribes(video, "none")) throw error;
      return { transcript: await this.transcribe(page, video, signal), transcribed: true };
    }
    if (this.transcribes(video, transcript.cues.length > 0 ? "usable" : "none")) {
      return { transcript: await this.transcribe(page, video, signal), transcribed: true };
    }
    return { transcript, transcribed: false };
  }

  /** The one rule (domain/transcribe-mode.ts), with whether this worker can transcribe at all. */
  private transcribes(video: ClaimedVideo, captions: CaptionsFound): boolean {
    return transcribesAudio(video.transcribe, captions, this.options.speechToText !== undefined);
  }

  /** A video of another platform: its page read (with retries), then its captions or its audio. */
  private async pageWordsOf(
    video: ClaimedVideo,
    signal: AbortSignal,
    named: (identity: PageIdentity) => void,
  ): Promise<VideoWords> {
    const pages = this.options.pages;
    if (pages === undefined) {
      throw new PlatformError(
        "video_unavailable",
        "This server's workers read YouTube only: other platforms need yt-dlp (VIDROWS_YTDLP_PATH) and VIDROWS_OTHER_PLATFORMS not off.",
      );
    }
    const url = await this.submittedUrl(video);
    // The page names the video either way; its captions are read only where they may be used.
    const captions = !this.transcribes(video, "not_asked");
    const read = await this.withRetries(
      signal,
      () => pages.read(url, video.videoId, { language: video.language, signal, captions }),
      "yt-dlp-page",
    );
    const videoId = this.settledVideoId(video, read);
    named({ videoId, pageUrl: read.pageUrl });
    const usable = read.transcript !== null && read.transcript.cues.length > 0;
    if (this.transcribes(video, usable ? "usable" : "none")) {
      // Its audio's failures name it by the id it settles under too.
      return { transcript: await this.transcribe(read.pageUrl, video, signal, videoId), transcribed: true };
    }
    // Named by the id it settles under: a page submitted as `url:<digest>` is `generic:<id>` by now.
    if (read.transcript === null) throw new PlatformError("no_captions", read.noCaptions(videoId));
    return { transcript: read.transcript, transcribed: false };
  }

  /**
   * The video_id a video of another platform settles under: the one yt-dlp gives for a page whose video
   * was not known at submission (`url:<digest>`); a known platform's keeps the id the submission read
   * from its URL, which the client already holds.
   */
  private settledVideoId(video: ClaimedVideo, read: PageRead): string {
    const submitted = parsePlatformVideoId(video.videoId);
    if (submitted?.platform !== unresolvedPlatform) return video.videoId;
    return videoIdOfRead(read.extractorKey, read.id) ?? video.videoId;
  }

  /** The URL the video was submitted as, kept with the video (sealed under the job's key on PostgreSQL). */
  private async submittedUrl(video: ClaimedVideo): Promise<string> {
    const row = await this.options.store.db
      .selectFrom("videos")
      .select("submitted_url")
      .where("id", "=", video.rowId)
      .executeTakeFirst();
    if (row?.submitted_url === null || row?.submitted_url === undefined) {
      throw new PlatformError("video_unavailable", `The page of ${video.videoId} is no longer kept.`);
    }
    return openStored(video.dataKey, row.submitted_url);
  }

  /** The audio at `url` transcribed; `videoId` names the video in messages (its current id). */
  private async transcribe(
    url: string,
    video: ClaimedVideo,
    signal: AbortSignal,
    videoId = video.videoId,
  ): Promise<Transcript> {
    const speech = this.options.speechToText;
    if (speech === undefined) {
      throw new TranscriptionError(
        "This worker has no speech-to-text configured (VIDROWS_TRANSCRIBE_*).",
        false,
      );
    }
    const limits = await this.options.bounds.audioLimits(video.workspaceId);
    return speech.transcribe(url, videoId, signal, limits);
  }

  /** A captions read, with retries and growing back-off for the failures that may pass. */
  private async withRetries<T>(
    signal: AbortSignal,
    attempt: () => Promise<T>,
    source = this.options.captionSourceName ?? "captions",
  ): Promise<T> {
    const attempts = this.options.captionAttempts ?? 4;
    // Uncapped, and from half to one and a half times each doubling; not cut short by the signal: a stop
    // takes effect at the next attempt.
    const backoff: Backoff = { firstMs: this.options.retryBaseMs ?? 1000, jitter: [0.5, 1.5] };
    for (let tried = 1; ; tried++) {
      try {
        const result = await attempt();
        captionFetches.inc({ source, outcome: "ok" });
        return result;
      } catch (error) {
        captionFetches.inc({ source, outcome: error instanceof PlatformError ? error.code : "error" });
        const retryable = error instanceof PlatformError ? error.retryable : !signal.aborted;
        if (!retryable || tried >= attempts || signal.aborted) {
          if (error instanceof PlatformError) throw error;
          throw new PlatformError(
            "captions_unavailable",
            `The video platform could not be reached: ${String(error)}`,
          );
        }
        await sleep(backoffDelay(tried, backoff));
      }
    }
  }
}
