// A chain of captions sources (VIDROWS_CAPTIONS=youtube,yt-dlp): the next is asked when one could not reach
// the platform or was refused by it, and the chain answers with the most informative outcome.
import { type CaptionSource, type FetchTranscriptOptions } from "./caption-source.js";
import { PlatformError } from "../platforms/platform-error.js";
import { type Transcript } from "../domain/transcript.js";

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
   * that another source would only repeat, so they end the chain, unless an earlier source saw caption
   * tracks it was kept from reading: then the later answer is contradicted by what is known, and is passed
   * over. Aborts and unexpected errors end the chain as they are.
   */
  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    const reasons: string[] = [];
    let sawCaptionTracks = false;
    for (const { name, source } of this.links) {
      options.signal?.throwIfAborted();
      try {
        return await source.fetchTranscript(videoId, options);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        if (error.code !== "captions_unavailable" && !sawCaptionTracks) throw error;
        reasons.push(
          error.code === "captions_unavailable"
            ? `${name}: ${error.message}`
            : `${name} (${error.code}, contradicted by the tracks seen before): ${error.message}`,
        );
        sawCaptionTracks ||= error.sawCaptionTracks;
      }
    }
    throw new PlatformError("captions_unavailable", reasons.join(" Then "), { sawCaptionTracks });
  }

  async close(): Promise<void> {
    await Promise.all(this.links.map(({ source }) => source.close?.()));
  }
}
