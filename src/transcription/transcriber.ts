// The port to a speech-to-text service: a transcriber turns one piece of audio into timed segments of text.

/** One piece of a video's audio, small enough for the service to take in one upload. */
export interface AudioPiece {
  readonly path: string;
  /** The piece's length when known: a service that answers without times gives one span over it. */
  readonly durationSeconds: number | undefined;
}

/** A stretch of speech, in seconds from the start of its piece. */
export interface SpokenSegment {
  readonly startSeconds: number;
  readonly endSeconds: number;
  readonly text: string;
}

export interface PieceTranscription {
  readonly segments: readonly SpokenSegment[];
  /** False when the service gave only text: the one segment then spans the whole piece. */
  readonly timed: boolean;
}

/**
 * The service failed or answered garbage. `mayPass` says whether trying again may help (a timeout, a
 * 5xx, a 429, an unreadable answer) or not (a refused key, an audio format it rejects); either way the
 * video fails with `transcription_failed`, which the contract calls retryable as a whole.
 */
export class TranscriptionError extends Error {
  readonly code = "transcription_failed";

  constructor(
    message: string,
    readonly mayPass: boolean,
    /** The wait the service asked for (`Retry-After`), when it asked. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export interface Transcriber {
  /** The speech of one piece; throws a TranscriptionError, or the signal's reason once it aborts. */
  transcribe(piece: AudioPiece, options: { readonly signal?: AbortSignal }): Promise<PieceTranscription>;
}
