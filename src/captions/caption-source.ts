// The port to the outside world for captions: a source turns a video id into a timed transcript.
import type { Transcript } from "../domain/transcript.js";

export interface FetchTranscriptOptions {
  /** Preferred caption language (BCP-47); without it, the video's own. */
  readonly language?: string;
  readonly signal?: AbortSignal;
}

export interface CaptionSource {
  /** The transcript of a video, or a PlatformError saying why there is none. */
  fetchTranscript(videoId: string, options?: FetchTranscriptOptions): Promise<Transcript>;
  /** Releases what the source holds open (a proxy's connections), if anything. */
  close?(): Promise<void>;
}
