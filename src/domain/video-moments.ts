// The address that opens a video at a moment, on whichever platform it is: YouTube's `t=`, Vimeo's `#t=`,
// Dailymotion's `?start=`, a media file's `#t=` (the W3C media fragment browsers play from); the page
// itself where the platform has no such link (TikTok, Instagram, X, Facebook, and any other).
import { parsePlatformVideoId } from "./platform-video-ids.js";
import { watchUrlAt } from "./video-references.js";

// A direct media file, which yt-dlp's generic extractor reads: browsers honour a media fragment on it.
const mediaFile = /\.(?:mp4|m4v|mov|webm|mkv|ogv|ogg|mp3|m4a|wav|flac|opus)$/i;

/** The page of a known platform's video from its id alone; null for the platforms whose links need more. */
export function canonicalPageUrl(platform: string, id: string): string | null {
  const path = encodeURIComponent(id);
  switch (platform) {
    case "vimeo":
      return `https://vimeo.com/${path}`;
    case "dailymotion":
      return `https://www.dailymotion.com/video/${path}`;
    case "twitter":
      return `https://x.com/i/status/${path}`;
    case "instagram":
      return `https://www.instagram.com/p/${path}/`;
    case "facebook":
      return `https://www.facebook.com/watch/?v=${path}`;
    default:
      return null;
  }
}

/**
 * The address that opens video `videoId` at `seconds` (rounded down to whole seconds, so the moment is
 * never missed). `pageUrl` is the page yt-dlp read for a video of another platform; without it, the
 * platform's usual page for the id, and failing that an empty string (a video of another platform is
 * always settled with its page).
 */
export function videoUrlAt(videoId: string, pageUrl: string | undefined, seconds: number): string {
  const platformVideo = parsePlatformVideoId(videoId);
  if (platformVideo === null) return watchUrlAt(videoId, seconds);
  const page = pageUrl ?? canonicalPageUrl(platformVideo.platform, platformVideo.id);
  if (page === null) return "";
  const at = Math.max(0, Math.floor(seconds));
  const url = new URL(page);
  if (platformVideo.platform === "vimeo") {
    url.hash = `t=${at}s`;
  } else if (platformVideo.platform === "dailymotion") {
    url.searchParams.set("start", String(at));
  } else if (platformVideo.platform === "generic" && mediaFile.test(url.pathname)) {
    url.hash = `t=${at}`;
  }
  return url.href;
}
