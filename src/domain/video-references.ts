// Reading the videos of a submission (YouTube URLs of every common form, or bare 11-character ids), and
// the address that opens a video at a moment.
import { hasStrayCharacter } from "./stray-characters.js";

const videoIdPattern = /^[A-Za-z0-9_-]{11}$/;

const youtubeHosts = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);

// The form almost every submission uses, read without building a URL (a tenth of the cost): the
// same id the general reading below finds, which is the first `v` of the query.
const plainWatchUrl = /^https:\/\/(?:www\.)?youtube\.com\/watch\?v=([A-Za-z0-9_-]{11})(?:&|$)/;

// Paths whose next segment is the video id: /shorts/<id>, /embed/<id>, /live/<id>, /v/<id>.
const idSegmentPrefixes = new Set(["shorts", "embed", "live", "v"]);

/** The platform's video id of a reference, or null when it is not a YouTube video reference. */
export function parseVideoReference(reference: string): string | null {
  if (videoIdPattern.test(reference)) return reference;
  // Never trimmed: see stray-characters.ts.
  if (hasStrayCharacter(reference)) return null;
  const plain = plainWatchUrl.exec(reference);
  if (plain) return plain[1] as string;
  let url: URL;
  try {
    // People paste "youtube.com/watch?v=..." without a scheme; accept it as https.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(reference) ? reference : `https://${reference}`);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase();
  let candidate: string | null | undefined;
  if (host === "youtu.be") {
    candidate = url.pathname.split("/")[1];
  } else if (youtubeHosts.has(host)) {
    const segments = url.pathname.split("/").filter((s) => s !== "");
    if (segments[0] === "watch") candidate = url.searchParams.get("v");
    else if (segments[0] !== undefined && idSegmentPrefixes.has(segments[0])) candidate = segments[1];
  }
  return candidate && videoIdPattern.test(candidate) ? candidate : null;
}

/**
 * The YouTube address that opens video `videoId` at `seconds` into it: `t=` takes whole seconds, so the
 * time is rounded down (the moment is then at or just after the start, never missed).
 */
export function watchUrlAt(videoId: string, seconds: number): string {
  const at = Math.max(0, Math.floor(seconds));
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}&t=${at}s`;
}

/** The page of video `videoId` that yt-dlp reads its audio from. */
export function videoPageUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
}
