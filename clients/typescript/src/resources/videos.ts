// vr.videos: a playlist's or channel's videos, listed by the server without creating anything, to submit.
import type { VideoListing, VideoListingQuery } from "../api-types.js";
import type { RequestOptions, Transport } from "../transport.js";

export class Videos {
  constructor(private readonly transport: Transport) {}

  /**
   * `GET /v1/videos`: the first `limit` (1 to 1000, default 100) videos of the playlist or channel at
   * `from`, with `has_more`. Free of credits; a listing is read from the platform each time, so it takes
   * seconds, more for a long channel.
   */
  list(query: VideoListingQuery, options: RequestOptions = {}): Promise<VideoListing> {
    return this.transport.send({
      method: "GET",
      path: "/v1/videos",
      query,
      retry: "repeatable",
      signal: options.signal,
    });
  }
}
