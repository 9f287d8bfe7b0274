// Reading one element of a submission's `videos` into the video_id it is stored under, or the reason it is
// refused: a YouTube id or URL, a video page of a platform named in platform-urls.ts (its id read from the
// URL), or, where the server reads any page, an https:// page of another host, whose video_id yt-dlp gives
// when the video is processed (until then `url:<digest>`, see unresolvedVideoId). No process runs here: a
// submission of 10,000 URLs is read in milliseconds.
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { videoIdOf } from "./platform-video-ids.js";
import { knownPlatformTitles, readKnownPage } from "./platform-urls.js";
import { strayCharacterIn } from "./stray-characters.js";
import { namesUpload, uploadIdOf } from "./upload-videos.js";
import { parseVideoReference } from "./video-references.js";

/**
 * Which pages besides YouTube's a server reads (VIDROWS_OTHER_PLATFORMS, and only where yt-dlp is found):
 * none, those of the platforms named in platform-urls.ts, or any https:// page.
 */
export const otherPlatformSettings = ["off", "known", "any"] as const;
export type OtherPlatforms = (typeof otherPlatformSettings)[number];

/**
 * The element's video_id, or what is wrong with it, said after "`videos[i]` ". A page's `pageUrl` is the
 * address as read and checked here (a known platform's rebuilt from its id): the one yt-dlp is handed, never
 * the submitted string, which another parser could read as another host.
 */
export type SubmittedVideo =
  { readonly videoId: string; readonly pageUrl?: string } | { readonly refusal: string };

/** The platform of a video_id whose page has not been read yet: `url:` and a digest of the URL. */
export const unresolvedPlatform = "url";

/**
 * The video_id of a page whose video yt-dlp names only when it reads the page: a digest of the URL (the
 * URL itself is kept only with the job's other submitted data, and deleted with it), so that the same URL
 * listed twice is found out, and nothing of the address shows in lists.
 */
export function unresolvedVideoId(url: URL): string {
  return `${unresolvedPlatform}:${createHash("sha256").update(url.href).digest("hex").slice(0, 16)}`;
}

const youtubeOnly =
  "is not a YouTube video URL (watch?v=, youtu.be/, shorts/, embed/, live/) or an 11-character video id.";

const youtubeHost = /(?:^|\.)(?:youtube\.com|youtube-nocookie\.com|youtu\.be)$/;

// Names that only resolve inside a network (Kubernetes' services included): a public video page is never there.
const localName =
  /(?:^|\.)(?:localhost|localdomain|local|internal|lan|home\.arpa|intranet|corp|svc|cluster\.local)$/;

/** Why a page's URL is not a public page (credentials, an address, a local name, a port), or null. */
export function hostProblem(url: URL): string | null {
  // A final dot names the same host (`localhost.` is localhost): the checks below see the name without it.
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  if (url.username !== "" || url.password !== "") {
    return "holds a user name or password; send the page's public address without them.";
  }
  // An IP address (IPv6 in brackets) or a one-word name: the server would fetch inside its own network.
  if (isIP(host.replace(/^\[|\]$/g, "")) !== 0 || !host.includes(".") || localName.test(host)) {
    return `names the host "${host}", which is not a public domain name; only public video pages are read.`;
  }
  if (url.port !== "") return "names a port; send the page's usual https:// address.";
  return null;
}

/**
 * Takes off a fragment yt-dlp would read as data for its extractors (`#__youtubedl_smuggle=` with another id
 * to name the video by, headers to send): what a caller or a page wrote there never reaches yt-dlp, and a
 * feed's episode is named by its file whatever yt-dlp lists it with. Other fragments stay (a server never
 * sees them; a page's own script may).
 */
export function withoutSmuggledData(url: URL): URL {
  if (url.hash.includes("__youtubedl_smuggle")) url.hash = "";
  return url;
}

/**
 * The page a reference names, its host without a final dot and without yt-dlp's smuggled data; null when it
 * is not an http(s) URL. A backslash is refused by the caller before: URL parsers disagree on it
 * (`https://x.com\\@127.0.0.1/` is host x.com to a browser and 127.0.0.1 to Python).
 */
export function pageOf(reference: string): URL | null {
  if (!/^https?:\/\//i.test(reference)) return null;
  try {
    const url = new URL(reference);
    if (url.hostname.endsWith(".")) url.hostname = url.hostname.replace(/\.+$/, "");
    return withoutSmuggledData(url);
  } catch {
    return null;
  }
}

/** The refusal of an address holding a backslash, said after "`videos[i]` " or "`from` ". */
export const backslashRefusal =
  "holds a backslash (\\), which programs read differently (as / or as part of the host); send the address with / only.";

/** Reads one element of `videos`; `otherPlatforms` says which pages beyond YouTube's are read. */
export function readSubmittedVideo(reference: string, otherPlatforms: OtherPlatforms): SubmittedVideo {
  const youtubeId = parseVideoReference(reference);
  if (youtubeId !== null) return { videoId: youtubeId };
  // An uploaded file: whether it exists in the workspace is the submission's to check (jobs/job-uploads.ts).
  if (namesUpload(reference)) {
    return uploadIdOf(reference) === null
      ? {
          refusal:
            "is not an upload reference: write `upload:` and the `upload_id` POST /v1/uploads answered (upl_ and 26 letters and digits).",
        }
      : { videoId: reference };
  }
  const stray = strayCharacterIn(reference);
  if (stray !== null) {
    return {
      refusal: `has ${stray}; send the video's URL or 11-character id alone, with no spaces, tabs, line breaks or invisible characters around or inside it.`,
    };
  }
  if (reference.includes("\\")) return { refusal: backslashRefusal };
  const page = pageOf(reference);
  if (page === null || youtubeHost.test(page.hostname.toLowerCase())) {
    return {
      refusal:
        otherPlatforms === "off" || page !== null
          ? youtubeOnly
          : `${youtubeOnly.slice(0, -1)}, or the https:// URL of a video's page.`,
    };
  }
  if (otherPlatforms === "off") {
    return {
      refusal: `${youtubeOnly.slice(0, -1)}; this server reads YouTube only (other platforms need yt-dlp on the server, see docs/platforms.md).`,
    };
  }
  if (page.protocol !== "https:") {
    return { refusal: "is an http:// URL; pages are read over https:// only: send its https:// address." };
  }
  const problem = hostProblem(page);
  if (problem !== null) return { refusal: problem };
  const known = readKnownPage(page);
  if (known?.kind === "video") {
    return { videoId: videoIdOf(known.platform, known.id), pageUrl: known.canonicalUrl };
  }
  if (known?.kind === "no_video") {
    return {
      refusal: `is a ${known.title} page that names no video (a profile, a playlist or a search?); send a video's URL: ${known.forms}.`,
    };
  }
  if (known === null && otherPlatforms === "known") {
    return {
      refusal: `is on ${page.hostname}, which this server does not read; it reads videos of ${["YouTube", ...knownPlatformTitles].join(", ")}.`,
    };
  }
  return { videoId: unresolvedVideoId(page), pageUrl: page.href };
}
