// The one shape of video id a captions source accepts, checked before an id reaches a file path or a URL.
import { PlatformError } from "../platforms/platform-error.js";

const videoIdPattern = /^[A-Za-z0-9_-]{11}$/;

/** Throws `video_unavailable` for anything that is not an 11-character platform id (no "../", no "/"). */
export function assertVideoId(videoId: string): void {
  if (!videoIdPattern.test(videoId)) {
    throw new PlatformError("video_unavailable", `"${videoId.slice(0, 40)}" is not a video id.`);
  }
}
