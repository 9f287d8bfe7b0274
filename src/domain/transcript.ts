// A video's words with their times, whichever way they were had: a caption track, or its audio transcribed.

export interface CaptionCue {
  readonly startMs: number;
  readonly endMs: number;
  readonly text: string;
}

export interface Transcript {
  readonly cues: readonly CaptionCue[];
  /** The video's length when the source knows it, else the end of the last cue. Billing follows it. */
  readonly durationSeconds: number;
  /** The caption track's language, when known (BCP-47). */
  readonly language?: string;
}
