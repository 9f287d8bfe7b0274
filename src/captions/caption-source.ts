// The port to the outside world for captions: a source turns a video id into a timed transcript.

export interface CaptionCue {
  readonly startMs: number;
  readonly endMs: number;
  readonly text: string;
}

export interface Transcript {
  readonly cues: readonly CaptionCue[];
  /**
   * The video's length as the page or platform claims it, else the end of the last cue: where a row's
   * moments end. The charge is never more (domain/processed-length.ts).
   */
  readonly durationSeconds: number;
  /**
   * The seconds of audio sent to speech-to-text, when transcribed: the charge. Captions leave it out and
   * are charged the span of their words.
   */
  readonly processedSeconds?: number;
  /** The caption track's language, when known (BCP-47). */
  readonly language?: string;
}

export type CaptionErrorCode = "no_captions" | "video_unavailable" | "captions_unavailable";

export interface CaptionErrorDetail {
  /**
   * The source saw caption tracks for the video (in the wanted language) but was kept from reading them (a
   * proof-of-origin token, a refused download). That is knowledge: a later source that finds no tracks, or
   * calls the video unavailable, is contradicted by it (see fallback-source.ts).
   */
  readonly sawCaptionTracks?: boolean;
}

/** Why a video's captions could not be had; the worker settles the video with this code. */
export class CaptionError extends Error {
  readonly sawCaptionTracks: boolean;

  constructor(
    readonly code: CaptionErrorCode,
    message: string,
    detail: CaptionErrorDetail = {},
  ) {
    super(message);
    this.sawCaptionTracks = detail.sawCaptionTracks ?? false;
  }

  /** Only a platform that could not be reached or refused us may answer differently later. */
  get retryable(): boolean {
    return this.code === "captions_unavailable";
  }
}

export interface FetchTranscriptOptions {
  /** Preferred caption language (BCP-47); without it, the video's own. */
  readonly language?: string;
  readonly signal?: AbortSignal;
}

export interface CaptionSource {
  /** The transcript of a video, or a CaptionError saying why there is none. */
  fetchTranscript(videoId: string, options?: FetchTranscriptOptions): Promise<Transcript>;
  /** Releases what the source holds open (a proxy's connections), if anything. */
  close?(): Promise<void>;
}
