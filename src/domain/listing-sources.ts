// Reading the `from` of `GET /v1/videos` (contract section 12, "Playlists and channels"): a YouTube playlist
// or channel in any of its common forms, rewritten to the one address yt-dlp is asked about, or the https://
// page of another platform that yt-dlp may read as a playlist. Anything else is refused with a reason a
// person can act on, before any process is started.
import { knownPlatformTitles, readKnownPage } from "./platform-urls.js";
import { strayCharacterIn } from "./stray-characters.js";
import {
  backslashRefusal,
  hostProblem,
  type OtherPlatforms,
  withoutSmuggledData,
} from "./submitted-videos.js";

export type ListingSource =
  | { readonly kind: "youtube-playlist"; readonly url: string }
  | { readonly kind: "youtube-channel"; readonly url: string }
  | { readonly kind: "other"; readonly url: string };

export type ListingSourceReading =
  { readonly ok: true; readonly source: ListingSource } | { readonly ok: false; readonly problem: string };

/** The tabs of a channel that hold videos; a channel named without one lists its Videos tab. */
export const channelTabs = ["videos", "shorts", "streams"] as const;

const youtubeHosts = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"]);
const playlistIdPattern = /^[A-Za-z0-9_-]{2,160}$/;
const channelIdPattern = /^UC[A-Za-z0-9_-]{22}$/;
// Handles and legacy names as they appear in a parsed URL's path: non-ASCII handles are percent-encoded.
const handlePattern = /^@[A-Za-z0-9._%-]{1,150}$/;
const legacyNamePattern = /^[A-Za-z0-9._%-]{1,150}$/;
// A channel's own page without a tab shows its featured videos: read as the Videos tab.
const homeTabs = new Set(["featured", "home"]);

function refused(problem: string): ListingSourceReading {
  return { ok: false, problem };
}

const oneVideo =
  "is the address of one video, not of a playlist or channel; send it in a job's `videos` instead";

/** A YouTube address read into the playlist or channel tab it names. */
function readYouTube(url: URL): ListingSourceReading {
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  const list = url.searchParams.get("list");
  const first = segments[0] ?? "";
  if (first === "playlist" || first === "watch") {
    if (list === null) {
      return first === "watch"
        ? refused(oneVideo)
        : refused("names no playlist: it has no `list=` parameter");
    }
    if (!playlistIdPattern.test(list)) return refused("has a `list=` that is not a playlist id");
    return {
      ok: true,
      source: { kind: "youtube-playlist", url: `https://www.youtube.com/playlist?list=${list}` },
    };
  }
  if (["shorts", "embed", "live", "v"].includes(first)) return refused(oneVideo);

  // The channel's part of the path (one segment for a handle, two for the other forms), then its tab.
  let channel: string | null = null;
  if (handlePattern.test(first)) channel = first;
  else if (first === "channel" && channelIdPattern.test(segments[1] ?? ""))
    channel = `channel/${segments[1]}`;
  else if ((first === "c" || first === "user") && legacyNamePattern.test(segments[1] ?? "")) {
    channel = `${first}/${segments[1]}`;
  }
  if (channel === null) {
    return refused(
      "is not a YouTube playlist or channel: use https://www.youtube.com/playlist?list=..., " +
        "/@handle, /channel/UC..., /c/name or /user/name, optionally with /videos, /shorts or /streams",
    );
  }
  const rest = segments.slice(channel.split("/").length);
  if (rest.length > 1) return refused("has more after the channel's tab than a channel address holds");
  const tab = rest[0] === undefined || homeTabs.has(rest[0]) ? "videos" : rest[0];
  if (!(channelTabs as readonly string[]).includes(tab)) {
    return refused(`names the channel's "${tab}" tab; only its videos, shorts or streams tab can be listed`);
  }
  return { ok: true, source: { kind: "youtube-channel", url: `https://www.youtube.com/${channel}/${tab}` } };
}

/**
 * The source `from` names, or why it names none. `otherPlatforms` (VIDROWS_OTHER_PLATFORMS, `off` without
 * yt-dlp) says which pages besides YouTube's may be listed: those a job could then be given.
 */
export function readListingSource(
  from: string,
  otherPlatforms: OtherPlatforms = "any",
): ListingSourceReading {
  const stray = strayCharacterIn(from);
  if (stray !== null) return refused(`holds ${stray}; send the address exactly, without it`);
  if (from.includes("\\")) return refused(backslashRefusal.replace(/\.$/, ""));
  const youtubeWithoutScheme = /^(?:(?:www|m|music)\.)?youtube\.com\//i.test(from);
  let url: URL;
  try {
    url = new URL(youtubeWithoutScheme ? `https://${from}` : from);
  } catch {
    return refused("is not a URL; send the https:// address of a playlist or channel");
  }
  // A final dot names the same host: every check below, and yt-dlp, see the name without it.
  if (url.hostname.endsWith(".")) url.hostname = url.hostname.replace(/\.+$/, "");
  withoutSmuggledData(url);
  const host = url.hostname.toLowerCase();
  if (url.protocol !== "https:" && !(url.protocol === "http:" && youtubeHosts.has(host))) {
    return refused("must be an https:// address");
  }
  if (youtubeHosts.has(host)) {
    if (url.username !== "" || url.password !== "") return refused("must not carry a user name or password");
    return readYouTube(url);
  }
  // A short link shared from a playlist keeps its `list=`: the playlist, as with a watch URL.
  if (host === "youtu.be") {
    return url.searchParams.has("list")
      ? readYouTube(new URL(`https://www.youtube.com/watch${url.search}`))
      : refused(oneVideo);
  }
  if (otherPlatforms === "off") {
    return refused(
      "is not a YouTube playlist or channel, and this server reads YouTube only (other platforms need yt-dlp on the server, see docs/platforms.md)",
    );
  }
  // The same rule as for a job's pages: yt-dlp never fetches inside the server's own network.
  const problem = hostProblem(url);
  if (problem !== null) return refused(problem.replace(/\.$/, ""));
  if (otherPlatforms === "known" && readKnownPage(url) === null) {
    return refused(
      `is on ${host}, which this server does not read; it reads ${["YouTube", ...knownPlatformTitles].join(", ")}`,
    );
  }
  return { ok: true, source: { kind: "other", url: url.href } };
}
