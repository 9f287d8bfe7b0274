// Which site a request goes to, as the pace counts them: YouTube by any of its names, any other by its host.

const youtubeHost = /(?:^|\.)(?:youtube\.com|youtube-nocookie\.com|youtu\.be)$/;
export const youtubeSite = "youtube";

/** The site of `url` (lower-case host without `www.`), `youtube` for YouTube's hosts; `url` itself if unparsable. */
export function siteOf(url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return url;
  }
  if (youtubeHost.test(host)) return youtubeSite;
  return host.replace(/^www\./, "");
}
