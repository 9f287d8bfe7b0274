// A video's words with their times, whichever way they were had: a caption track, or its audio transcribed.

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
