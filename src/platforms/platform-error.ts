// The one error a video site's answer becomes, whoever asked (captions, audio downloads, pages of other
// platforms): one of the contract's per-video codes and a message a person can act on.

export type PlatformErrorCode = "no_captions" | "video_unavailable" | "captions_unavailable";

export interface PlatformErrorDetail {
  /**
   * The source saw caption tracks for the video (in the wanted language) but was kept from reading them (a
   * proof-of-origin token, a refused download). That is knowledge: a later source that finds no tracks, or
   * calls the video unavailable, is contradicted by it (see captions/fallback-source.ts).
   */
  readonly sawCaptionTracks?: boolean;
}

/** Why a video's words could not be had from its site; the worker settles the video with this code. */
export class PlatformError extends Error {
  readonly sawCaptionTracks: boolean;

  constructor(
    readonly code: PlatformErrorCode,
    message: string,
    detail: PlatformErrorDetail = {},
  ) {
    super(message);
    this.sawCaptionTracks = detail.sawCaptionTracks ?? false;
  }

  /** Only a platform that could not be reached or refused us may answer differently later. */
  get retryable(): boolean {
    return this.code === "captions_unavailable";
  }
}

/** A failure that may pass (the site refused us, or could not be reached). */
export function platformUnavailable(message: string): PlatformError {
  return new PlatformError("captions_unavailable", message);
}
