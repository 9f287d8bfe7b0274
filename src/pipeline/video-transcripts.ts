// A video's words for the worker: its captions, fetched with retries, or its audio transcribed.
import { CaptionError, type CaptionSource, type Transcript } from "../captions/caption-source.js";
import { type Backoff, backoffDelay } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";
import { videoPageUrl } from "../domain/video-references.js";
import { captionFetches } from "../metrics.js";
import type { SpeechToText } from "../transcription/speech-to-text.js";
import { TranscriptionError } from "../transcription/transcriber.js";
import type { ClaimedVideo } from "./claims.js";

export interface VideoTranscriptOptions {
  readonly captions: CaptionSource;
  /** Transcribes a video's audio when it has no usable captions; undefined when not configured. */
  readonly speechToText?: SpeechToText | undefined;
  /** Attempts at a retryable captions failure before the video fails with it (4). */
  readonly captionAttempts?: number | undefined;
  /** First back-off between captions attempts (1 s); doubles each time. */
  readonly retryBaseMs?: number | undefined;
  /** The caption source's name in the metrics (`youtube`, `dir`, `url`...). */
  readonly captionSourceName?: string | undefined;
}

export class VideoTranscripts {
  constructor(private readonly options: VideoTranscriptOptions) {}

  /**
   * The video's words: its captions, or its audio transcribed when the job says `always`, or says `auto`
   * (the default) and the video has no usable captions.
   */
  async of(
    video: ClaimedVideo,
    signal: AbortSignal,
  ): Promise<{ transcript: Transcript; transcribed: boolean }> {
    const speech = this.options.speechToText;
    if (video.transcribe === "always") {
      if (speech === undefined) {
        throw new TranscriptionError(
          "This worker has no speech-to-text configured (VIDROWS_TRANSCRIBE_*).",
          false,
        );
      }
      return { transcript: await this.transcribe(speech, video, signal), transcribed: true };
    }
    const fallback = video.transcribe === "auto" ? speech : undefined;
    try {
      const transcript = await this.fetchCaptions(video, signal);
      if (transcript.cues.length > 0 || fallback === undefined) return { transcript, transcribed: false };
    } catch (error) {
      // Only a video known to have no captions is transcribed: a platform that refused us may let the
      // captions through on the next claim, and an unavailable video has no audio either.
      const noCaptions = error instanceof CaptionError && error.code === "no_captions";
      if (!noCaptions || fallback === undefined) throw error;
    }
    return { transcript: await this.transcribe(fallback, video, signal), transcribed: true };
  }

  private transcribe(speech: SpeechToText, video: ClaimedVideo, signal: AbortSignal): Promise<Transcript> {
    return speech.transcribe(videoPageUrl(video.platformVideoId), video.platformVideoId, signal);
  }

  /** Captions, with retries and growing back-off for the failures that may pass. */
  private async fetchCaptions(video: ClaimedVideo, signal: AbortSignal): Promise<Transcript> {
    const attempts = this.options.captionAttempts ?? 4;
    // Uncapped, and from half to one and a half times each doubling; not cut short by the signal: a stop
    // takes effect at the next attempt.
    const backoff: Backoff = { firstMs: this.options.retryBaseMs ?? 1000, jitter: [0.5, 1.5] };
    const source = this.options.captionSourceName ?? "captions";
    for (let attempt = 1; ; attempt++) {
      try {
        const transcript = await this.options.captions.fetchTranscript(video.platformVideoId, {
          language: video.language,
          signal,
        });
        captionFetches.inc({ source, outcome: "ok" });
        return transcript;
      } catch (error) {
        captionFetches.inc({ source, outcome: error instanceof CaptionError ? error.code : "error" });
        const retryable = error instanceof CaptionError ? error.retryable : !signal.aborted;
        if (!retryable || attempt >= attempts || signal.aborted) {
          if (error instanceof CaptionError) throw error;
          throw new CaptionError(
            "captions_unavailable",
            `The video platform could not be reached: ${String(error)}`,
          );
        }
        await sleep(backoffDelay(attempt, backoff));
      }
    }
  }
}
