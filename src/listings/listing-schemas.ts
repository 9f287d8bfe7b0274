// The answer of `GET /v1/videos`: defined once, as the schema the route documents and the type the
// listing service returns.
import { type Static, Type } from "typebox";
import { refTo } from "../http/common-schemas.js";

export const ListedVideo = Type.Object(
  {
    video_id: Type.String({
      description:
        "The id a job would give the video: the bare 11-character id on YouTube, `<platform>:<id>` elsewhere.",
    }),
    url: Type.String({ description: "The video's page: what to put in a job's `videos`." }),
    title: Type.Union([Type.String(), Type.Null()], {
      description: "As the platform lists it; null if none.",
    }),
    duration_seconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description:
        "Its length as the listing gives it, rounded to the second; null when the listing does not say (live streams, some platforms).",
    }),
  },
  { $id: "ListedVideo", description: "One video of a playlist or channel." },
);
export type ListedVideo = Static<typeof ListedVideo>;

export const VideoListing = Type.Object(
  {
    data: Type.Array(refTo(ListedVideo), {
      description:
        "At most `limit` videos, in the listing's order (newest first for a channel's tab, the playlist's own order for a playlist).",
    }),
    has_more: Type.Boolean({ description: "Whether the listing holds more videos than `limit`." }),
  },
  { $id: "VideoListing", description: "The videos of a playlist or channel; nothing is created." },
);
export type VideoListing = Static<typeof VideoListing>;

export const listingComponents = [ListedVideo, VideoListing];
