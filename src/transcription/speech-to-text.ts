// A video without usable captions, transcribed from its audio: downloaded into a folder of its own, cut into
// pieces the service takes, each piece transcribed (with retries) and its times moved by the piece's start,
// and the folder removed whatever happens.
import { stat, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { type Backoff, backoffDelay } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";
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

/** Cuts audio over the service's upload limit into pieces under it (ffmpeg, audio-pieces.ts). */
export interface AudioCutter {
  cut(audio: DownloadedAudio, maxBytes: number, folder: string, signal?: AbortSignal): Promise<PlacedPiece[]>;
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
}

export class SpeechToText {
  readonly tempRoot: string;

  constructor(private readonly options: SpeechToTextOptions) {
    this.tempRoot = options.tempRoot ?? tmpdir();
  }

  /**
   * The transcript of the video at `url`: a PlatformError when its audio cannot be had, a
   * TranscriptionError when the service fails after retries, the signal's reason on abort.
   */
  async transcribe(url: string, videoId: string, signal?: AbortSignal): Promise<Transcript> {
    const folder = await newWorkFolder("audio", this.tempRoot);
    try {
      const audio = await this.withRetries(
        () => this.options.audio.download(url, videoId, folder, signal),
        (error) => error instanceof PlatformError && error.retryable,
        signal,
      );
      const pieces = await this.pieces(audio, folder, signal);
      const cues: CaptionCue[] = [];
      for (const { piece, offsetSeconds } of pieces) {
        const heard = await this.withRetries(
          () => this.options.transcriber.transcribe(piece, { signal }),
          (error) => error instanceof TranscriptionError && error.mayPass,
          signal,
        );
        for (const segment of heard.segments) {
          cues.push({
            startMs: Math.round((offsetSeconds + segment.startSeconds) * 1000),
            endMs: Math.round((offsetSeconds + segment.endSeconds) * 1000),
            text: segment.text,
          });
        }
      }
      const last = pieces.at(-1);
      const heardSeconds = Math.max(
        (cues.at(-1)?.endMs ?? 0) / 1000,
        last ? last.offsetSeconds + (last.piece.durationSeconds ?? 0) : 0,
      );
      return { cues, durationSeconds: audio.durationSeconds ?? heardSeconds };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private async pieces(audio: DownloadedAudio, folder: string, signal?: AbortSignal): Promise<PlacedPiece[]> {
    const whole: PlacedPiece = { piece: audio, offsetSeconds: 0 };
    const { size } = await stat(audio.path);
    if (size <= this.options.maxUploadBytes) return [whole];
    if (this.options.cutter === undefined) {
      throw new TranscriptionError(
        `The audio is ${size} bytes, over the service's limit of ${this.options.maxUploadBytes}, and no ffmpeg is at hand to cut it.`,
        false,
      );
    }
    return this.options.cutter.cut(audio, this.options.maxUploadBytes, folder, signal);
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
        await sleep(backoffDelay(failures, backoff), signal);
      }
    }
  }
}
