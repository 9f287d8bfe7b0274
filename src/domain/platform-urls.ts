// The video pages of the platforms vidrows knows besides YouTube (contract section 12, "Other platforms"):
// for each, the URL forms that name one video and where in them its id is, so that a submission learns the
// `video_id` without running yt-dlp, and refuses a page of such a platform that names no video (a profile,
// a playlist, a search). Each platform is named as yt-dlp names its extractor, lowercased, so the id read
// here is the one yt-dlp reports when the video is processed.

/** What a URL of a known platform says: its video's id, a link to resolve later, or no video at all. */
export type KnownPageReading =
  | {
      readonly kind: "video";
      readonly platform: string;
      readonly id: string;
      /** The video's page rebuilt from its id: what yt-dlp is handed. */
      readonly canonicalUrl: string;
    }
  /** A short or share link (`vm.tiktok.com/...`, `fb.watch/...`): the id is known once yt-dlp follows it. */
  | { readonly kind: "link"; readonly platform: string }
  | { readonly kind: "no_video"; readonly title: string; readonly forms: string };

interface KnownPlatform {
  /** yt-dlp's extractor name, lowercased: the prefix of the `video_id`. */
  readonly platform: string;
  /** What people call it, for messages. */
  readonly title: string;
  readonly hosts: readonly string[];
  /** Hosts whose every page is a short link to a video. */
  readonly linkHosts?: readonly string[];
  /** The URL forms that name a video, as the 400 lists them. */
  readonly forms: string;
  /** The video's id, "link" for a share link, or null when the URL names no video. */
  readonly idOf: (segments: readonly string[], url: URL) => string | "link" | null;
  /** The video's page built from its id (and, for Vimeo, the hash of an unlisted video). */
  readonly canonical: (id: string, url: URL) => string;
}

const digits = /^\d{1,25}$/;
const shortcode = /^[A-Za-z0-9_-]{5,40}$/;
const dailymotionId = /^[A-Za-z0-9]{4,20}$/;
const vimeoHash = /^[0-9a-f]{6,20}$/;

/** The hash an unlisted Vimeo video's URL carries (vimeo.com/<id>/<hash>, ?h=<hash>), if any. */
function vimeoHashOf(url: URL): string | null {
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  const inPath = segments[0] !== undefined && digits.test(segments[0]) ? segments[1] : undefined;
  return matching(inPath, vimeoHash) ?? matching(url.searchParams.get("h"), vimeoHash);
}

/** The segment after the first `marker` in the path, when there is one. */
function after(segments: readonly string[], marker: string): string | undefined {
  const at = segments.indexOf(marker);
  return at < 0 ? undefined : segments[at + 1];
}

const matching = (value: string | null | undefined, pattern: RegExp) =>
  value !== null && value !== undefined && pattern.test(value) ? value : null;

const platforms: readonly KnownPlatform[] = [
  {
    platform: "vimeo",
    title: "Vimeo",
    hosts: ["vimeo.com", "www.vimeo.com", "player.vimeo.com"],
    forms:
      "vimeo.com/<id>, vimeo.com/<id>/<hash>, vimeo.com/channels/<name>/<id>, player.vimeo.com/video/<id>",
    canonical: (id, url) => {
      const hash = vimeoHashOf(url);
      return hash === null ? `https://vimeo.com/${id}` : `https://vimeo.com/${id}/${hash}`;
    },
    idOf: (segments, url) => {
      if (url.hostname === "player.vimeo.com") return matching(after(segments, "video"), digits);
      const [first, , third] = segments;
      if (matching(first, digits)) return first as string;
      if (first === "channels") return matching(third, digits);
      // groups/<name>/videos/<id>, album/<n>/video/<id>, showcase/<n>/video/<id>
      if (first === "groups") return matching(after(segments, "videos"), digits);
      if (first === "album" || first === "showcase")
        return matching(after(segments.slice(2), "video"), digits);
      return null;
    },
  },
  {
    platform: "dailymotion",
    title: "Dailymotion",
    hosts: ["dailymotion.com", "www.dailymotion.com", "geo.dailymotion.com", "dai.ly"],
    forms: "dailymotion.com/video/<id>, dai.ly/<id>, geo.dailymotion.com/player.html?video=<id>",
    canonical: (id) => `https://www.dailymotion.com/video/${id}`,
    idOf: (segments, url) => {
      if (url.hostname === "dai.ly")
        return segments.length === 1 ? matching(segments[0], dailymotionId) : null;
      if (url.hostname === "geo.dailymotion.com")
        return matching(url.searchParams.get("video"), dailymotionId);
      // The old form adds a slug after an underscore: /video/x7tgad0_the-title.
      return matching(after(segments, "video")?.split("_")[0], dailymotionId);
    },
  },
  {
    platform: "tiktok",
    title: "TikTok",
    hosts: ["tiktok.com", "www.tiktok.com", "m.tiktok.com"],
    linkHosts: ["vm.tiktok.com", "vt.tiktok.com"],
    forms:
      "tiktok.com/@<user>/video/<id>, tiktok.com/embed/v2/<id>, m.tiktok.com/v/<id>.html, vm.tiktok.com/<code>",
    // The form yt-dlp itself builds when it knows the id only.
    canonical: (id) => `https://www.tiktok.com/@_/video/${id}`,
    idOf: (segments) => {
      const [first, second, third] = segments;
      if (first === "t" && second !== undefined && segments.length === 2) return "link";
      if (first?.startsWith("@") && (second === "video" || second === "photo"))
        return matching(third, digits);
      if (first === "embed") return matching(second === "v2" ? third : second, digits);
      if (first === "v") return matching(second?.replace(/\.html$/, ""), digits);
      return null;
    },
  },
  {
    platform: "twitter",
    title: "X (Twitter)",
    hosts: ["x.com", "www.x.com", "mobile.x.com", "twitter.com", "www.twitter.com", "mobile.twitter.com"],
    forms: "x.com/<user>/status/<id>, twitter.com/<user>/status/<id>, x.com/i/status/<id>",
    // twitter.com: every yt-dlp release reads it (x.com only those since mid-2023).
    canonical: (id) => `https://twitter.com/i/status/${id}`,
    idOf: (segments) => matching(after(segments, "status") ?? after(segments, "statuses"), digits),
  },
  {
    platform: "instagram",
    title: "Instagram",
    hosts: ["instagram.com", "www.instagram.com"],
    forms: "instagram.com/p/<code>, instagram.com/reel/<code>, instagram.com/tv/<code>",
    canonical: (id) => `https://www.instagram.com/p/${id}/`,
    idOf: (segments) => {
      // Also under the author's name: /<user>/p/<code>, /<user>/reel/<code>.
      const marker = segments
        .slice(0, 2)
        .find((s) => s === "p" || s === "reel" || s === "reels" || s === "tv");
      return marker === undefined ? null : matching(after(segments, marker), shortcode);
    },
  },
  {
    platform: "facebook",
    title: "Facebook",
    hosts: ["facebook.com", "www.facebook.com", "m.facebook.com", "web.facebook.com"],
    linkHosts: ["fb.watch"],
    forms:
      "facebook.com/watch/?v=<id>, facebook.com/<page>/videos/<id>, facebook.com/reel/<id>, fb.watch/<code>",
    canonical: (id) => `https://www.facebook.com/watch/?v=${id}`,
    idOf: (segments, url) => {
      const [first, second] = segments;
      if (first === "share" && (second === "v" || second === "r") && segments.length === 3) return "link";
      if (first === "watch" || first === "video.php") return matching(url.searchParams.get("v"), digits);
      if (first === "reel") return matching(second, digits);
      // /<page>/videos/<id> and /<page>/videos/<title>/<id>
      if (segments[1] === "videos") return matching(segments.at(-1), digits);
      return null;
    },
  },
];

const byHost = new Map<string, KnownPlatform>();
for (const known of platforms) {
  for (const host of [...known.hosts, ...(known.linkHosts ?? [])]) byHost.set(host, known);
}

/** The platforms named here, for messages and the documentation's list. */
export const knownPlatformTitles: readonly string[] = platforms.map((known) => known.title);

/** What an https URL of a known platform names; null when its host is not one of theirs. */
export function readKnownPage(url: URL): KnownPageReading | null {
  const known = byHost.get(url.hostname.toLowerCase());
  if (known === undefined) return null;
  if (known.linkHosts?.includes(url.hostname.toLowerCase())) {
    return url.pathname.length > 1
      ? { kind: "link", platform: known.platform }
      : { kind: "no_video", title: known.title, forms: known.forms };
  }
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  const id = known.idOf(segments, url);
  if (id === "link") return { kind: "link", platform: known.platform };
  if (id === null) return { kind: "no_video", title: known.title, forms: known.forms };
  return { kind: "video", platform: known.platform, id, canonicalUrl: known.canonical(id, url) };
}
