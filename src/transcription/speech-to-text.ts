// A video without usable captions, transcribed from its audio: downloaded into a folder of its own within the
// video's bounds, measured, cut into pieces the service takes (and to the length the page claims), each piece
// transcribed (with retries, waiting as the service asks) and its times moved by the piece's start, and the
// folder removed whatever happens. The transcript says how many seconds of audio were sent: its charge.
import { rm, stat, statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import { type Backoff, backoffDelay } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";
import { type AudioLimits, BoundExceeded, inMegabytes } from "../domain/media-bounds.js";
import { clampToPiece, claimedSeconds, sentSeconds } from "../domain/processed-length.js";
import type { CaptionCue, Transcript } from "../domain/transcript.js";
import { PlatformError } from "../platforms/platform-error.js";
import { newWorkFolder } from "../platforms/work-folders.js";
import type { AudioSource, DownloadedAudio } from "./audio-download.js";
import { type AudioPiece, type Transcriber, TranscriptionError } from "./transcriber.js";

/** A piece of the audio and where it starts in the video. */
export interface PlacedPiece {
  readonly piece: AudioPiece;
  readonly offsetSeconds: number;
}

/** Measures audio and cuts it into pieces under the service's upload limit (ffmpeg, audio-pieces.ts). */
export interface AudioCutter {
  /** The seconds of audio the file holds, from its packets, whatever its header or the page says. */
  measure(path: string, signal?: AbortSignal): Promise<number>;
  /** Pieces of at most `maxBytes`, of the first `keepSeconds` of the audio. */
  cut(
    audio: DownloadedAudio,
    maxBytes: number,
    folder: string,
    signal?: AbortSignal,
    keepSeconds?: number,
  ): Promise<PlacedPiece[]>;
}

export interface SpeechToTextOptions {
  readonly audio: AudioSource;
  readonly transcriber: Transcriber;
  /** Without one, audio over the limit fails the video (ffmpeg is required when transcription is set up). */
  readonly cutter?: AudioCutter;
  /** The service's upload limit in bytes. */
  readonly maxUploadBytes: number;
  /** Where the audio folders go: the system's temporary folder unless set. */
  readonly tempRoot?: string;
  /** Attempts at each download and each piece's transcription, the first included (3 unless set). */
  readonly attempts?: number;
  /** The wait after a first failure; it doubles after each (1 s unless set). */
  readonly retryBaseMs?: number;
  /** The longest `Retry-After` waited for; a service asking for more fails the video, retryable (120 s unless set). */
  readonly maxRetryAfterMs?: number;
}

/** A page's claim within this much of the measured length is the same length (rounding, an encoder's delay). */
const claimToleranceSeconds = 1;

export class SpeechToText {
  readonly tempRoot: string;

  constructor(private readonly options: SpeechToTextOptions) {
    this.tempRoot = options.tempRoot ?? tmpdir();
  }

  /**
   * The transcript of the video at `url`, within `limits`: a PlatformError when its audio cannot be had, a
   * BoundExceeded past a bound, a TranscriptionError when the service fails after retries, the signal's
   * reason on abort.
   */
  async transcribe(
    url: string,
    videoId: string,
    signal?: AbortSignal,
    limits?: AudioLimits,
    /** Where the audio comes from: yt-dlp unless given (an uploaded file's own, pipeline/upload-words.ts). */
    source: AudioSource = this.options.audio,
  ): Promise<Transcript> {
    if (limits !== undefined) await this.checkFreeSpace(limits);
    const folder = await newWorkFolder("audio", this.tempRoot);
    try {
      const audio = await this.withRetries(
        () => source.download(url, videoId, folder, signal, limits),
        (error) => error instanceof PlatformError && error.retryable,
        signal,
      );
      const mediaSeconds = await this.measured(audio, limits, signal);
      const claimed = claimedSeconds(audio.durationSeconds);
      // Never more than the page claims: audio past its claim is not sent, so not charged either.
      const keepSeconds =
        claimed !== undefined && mediaSeconds > claimed + claimToleranceSeconds ? claimed : undefined;
      const pieces = await this.pieces(
        { ...audio, durationSeconds: mediaSeconds },
        folder,
        keepSeconds,
        signal,
      );
      const cues: CaptionCue[] = [];
      for (const { piece, offsetSeconds } of pieces) {
        const heard = await this.withRetries(
          () => this.options.transcriber.transcribe(piece, { signal }),
          (error) => error instanceof TranscriptionError && error.mayPass,
          signal,
        );
        for (const segment of heard.segments) {
          const within = clampToPiece(segment.startSeconds, segment.endSeconds, piece.durationSeconds);
          cues.push({
            startMs: Math.round((offsetSeconds + within.startSeconds) * 1000),
            endMs: Math.round((offsetSeconds + within.endSeconds) * 1000),
            text: segment.text,
          });
        }
      }
      const sent = sentSeconds(
        pieces.map(({ piece }) => piece.durationSeconds),
        keepSeconds ?? mediaSeconds,
      );
      return { cues, durationSeconds: keepSeconds ?? mediaSeconds, processedSeconds: sent };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** Room for the download and its pieces (as large again) where the audio goes, else a retryable failure. */
  private async checkFreeSpace(limits: AudioLimits): Promise<void> {
    const needed = limits.maxBytes * 2;
    const { bavail, bsize } = await statfs(this.tempRoot);
    const free = bavail * bsize;
    if (free < needed) {
      throw new TranscriptionError(
        `This worker has ${inMegabytes(free)} free in ${this.tempRoot}, and this video's audio and its pieces may take ${inMegabytes(needed)}; it will be tried again.`,
        false,
      );
    }
  }

  /**
   * The audio's length as its packets say (ffmpeg), checked against the length and size bounds. Without
   * ffmpeg (only in tests: a worker with speech-to-text requires it) the page's claim is taken.
   */
  private async measured(audio: DownloadedAudio, limits: AudioLimits | undefined, signal?: AbortSignal) {
    const { size } = await stat(audio.path);
    if (limits !== undefined && size > limits.maxBytes) {
      throw new BoundExceeded(
        "video_unavailable",
        `The audio is larger than ${inMegabytes(limits.maxBytes)}, the most ${limits.length.named} may take at ${limits.kilobitsPerSecond} kbit/s; nothing was charged.`,
      );
    }
    const cutter = this.options.cutter;
    const seconds = cutter ? await cutter.measure(audio.path, signal) : (audio.durationSeconds ?? 0);
    if (limits !== undefined && seconds > limits.length.maxSeconds + claimToleranceSeconds) {
      throw new BoundExceeded(
        limits.length.code,
        `The audio is ${Math.round(seconds / 60)} minutes long, past ${limits.length.named}; nothing was charged.`,
      );
    }
    return seconds;
  }

  private async pieces(
    audio: DownloadedAudio,
    folder: string,
    keepSeconds: number | undefined,
    signal?: AbortSignal,
  ): Promise<PlacedPiece[]> {
    const whole: PlacedPiece = { piece: audio, offsetSeconds: 0 };
    const { size } = await stat(audio.path);
    if (size <= this.options.maxUploadBytes && keepSeconds === undefined) return [whole];
    if (this.options.cutter === undefined) {
      throw new TranscriptionError(
        `The audio is ${size} bytes, over the service's limit of ${this.options.maxUploadBytes}, and no ffmpeg is at hand to cut it.`,
        false,
      );
    }
    return this.options.cutter.cut(audio, this.options.maxUploadBytes, folder, signal, keepSeconds);
  }

  /** `attempt` again after failures `mayPass` accepts, waiting longer each time; the last failure thrown. */
  private async withRetries<T>(
    attempt: () => Promise<T>,
    mayPass: (error: unknown) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const attempts = this.options.attempts ?? 3;
    const backoff: Backoff = { firstMs: this.options.retryBaseMs ?? 1000 };
    for (let failures = 1; ; failures++) {
      try {
        return await attempt();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (failures >= attempts || !mayPass(error)) throw error;
        const asked = error instanceof TranscriptionError ? (error.retryAfterMs ?? 0) : 0;
        const maxAsked = this.options.maxRetryAfterMs ?? 120_000;
        if (asked > maxAsked) {
          throw new TranscriptionError(
            `${(error as Error).message} (it asked to wait ${Math.ceil(asked / 1000)} s, more than the ${maxAsked / 1000} s VIDROWS_TRANSCRIBE_MAX_RETRY_AFTER_SECONDS allows; the video may be tried again later)`,
            false,
          );
        }
        await sleep(Math.max(backoffDelay(failures, backoff), asked), signal);
      }
    }
  }
}
