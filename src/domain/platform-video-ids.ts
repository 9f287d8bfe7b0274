// The `video_id` of a video on a platform other than YouTube (contract section 12, "Other platforms"):
// `<platform>:<id>`, the platform as yt-dlp names the extractor that read the page, lowercased
// ("vimeo:76979871", "tiktok:7106594312292453675"). A YouTube video keeps its bare 11-character id, so
// every id stored before other platforms existed stays what it was.

/** A video of a platform other than YouTube, as yt-dlp names it. */
export interface PlatformVideo {
  /** The extractor's name, lowercased: "vimeo", "tiktok", "twitter", "generic". */
  readonly platform: string;
  /** The platform's own id of the video, as yt-dlp reports it. */
  readonly id: string;
}

// Extractor names are letters and digits ("Vimeo", "TikTok", "Generic"); ids are the platform's own and
// may hold more, but never whitespace or control characters, and never a length that would swamp a row.
const platformPattern = /^[a-z0-9]{1,40}$/;
const idPattern = /^[\x21-\x7e]{1,200}$/;

/** The `video_id` for what yt-dlp read: the bare id for YouTube, `<platform>:<id>` for any other. */
export function videoIdOf(extractorKey: string, id: string): string {
  const platform = extractorKey.toLowerCase();
  if (platform === "youtube") return id;
  return `${platform}:${id}`;
}

/** The platform and id of a `<platform>:<id>` video_id, or null for a YouTube id or anything malformed. */
export function parsePlatformVideoId(videoId: string): PlatformVideo | null {
  const colon = videoId.indexOf(":");
  if (colon <= 0) return null;
  const platform = videoId.slice(0, colon);
  const id = videoId.slice(colon + 1);
  if (platform === "youtube" || !platformPattern.test(platform) || !idPattern.test(id)) return null;
  return { platform, id };
}

const youtubeIdPattern = /^[A-Za-z0-9_-]{11}$/;

/**
 * The `video_id` for what yt-dlp read, when it fits the shape every video_id has: an id holding spaces or
 * other characters outside printable ASCII (a media file's name, say) is percent-encoded; null when even
 * that does not fit (an id of more than 200 characters), so the caller keeps the id it had.
 */
export function videoIdOfRead(extractorKey: string, id: string): string | null {
  for (const candidate of [id, encodeURIComponent(id)]) {
    const videoId = videoIdOf(extractorKey, candidate);
    const fits =
      parsePlatformVideoId(videoId) !== null ||
      (extractorKey.toLowerCase() === "youtube" && youtubeIdPattern.test(videoId));
    if (fits) return videoId;
  }
  return null;
}
