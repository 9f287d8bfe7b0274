// A chain of captions sources (VIDROWS_CAPTIONS=youtube,yt-dlp): the next is asked when one could not reach
// the platform or was refused by it. What a source learnt about the video itself is final.
import {
  CaptionError,
  type CaptionSource,
  type FetchTranscriptOptions,
  type Transcript,
} from "./caption-source.js";

export interface NamedCaptionSource {
  readonly name: string;
  readonly source: CaptionSource;
}

export class FallbackCaptionSource implements CaptionSource {
  constructor(readonly links: readonly NamedCaptionSource[]) {
    if (links.length === 0) throw new Error("A chain of captions sources needs at least one source.");
  }

  /**
   * The first transcript any source gives. `no_captions` and `video_unavailable` are facts about the video
   * that another source would only repeat, so they end the chain; so do aborts and unexpected errors.
   */
  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    const refusals: string[] = [];
    for (const { name, source } of this.links) {
      options.signal?.throwIfAborted();
      try {
        return await source.fetchTranscript(videoId, options);
      } catch (error) {
        if (!(error instanceof CaptionError) || error.code !== "captions_unavailable") throw error;
        refusals.push(`${name}: ${error.message}`);
      }
    }
    throw new CaptionError("captions_unavailable", refusals.join(" Then "));
  }

  async close(): Promise<void> {
    await Promise.all(this.links.map(({ source }) => source.close?.()));
  }
}
