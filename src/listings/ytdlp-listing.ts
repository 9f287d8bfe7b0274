// What yt-dlp is asked for a listing and how its answer is read: with --flat-playlist and
// --dump-single-json it prints the playlist as one JSON document, `_type: "playlist"` with `entries`, each
// a video's `id`, `url`, `title`, `duration` and `ie_key` (the extractor that would read it), without
// opening any video. --playlist-end stops it one video past the limit, which tells whether there are more.
import { videoIdOf, videoIdOfRead } from "../domain/platform-video-ids.js";
import { pageOf, readSubmittedVideo, unresolvedPlatform } from "../domain/submitted-videos.js";
import { accessArguments, type AttemptAccess } from "../platforms/platform-access.js";
import type { ListedVideo } from "./listing-schemas.js";

export interface ListingAccess {
  readonly access?: AttemptAccess;
  /** The pace between the requests of one run (the pages of a long listing): PlatformAccess.sleepArguments. */
  readonly sleepArguments?: readonly string[];
}

export function listingArguments(url: string, limit: number, run: ListingAccess = {}): string[] {
  return [
    "--flat-playlist",
    "--dump-single-json",
    "--playlist-end",
    String(limit + 1),
    "--no-progress",
    ...(run.sleepArguments ?? []),
    ...accessArguments(run.access ?? {}),
    "--",
    url,
  ];
}

export type ListingOutput =
  | { readonly kind: "listing"; readonly videos: ListedVideo[]; readonly hasMore: boolean }
  /** yt-dlp read the address as one video, not a playlist. */
  | { readonly kind: "one-video" }
  /** Nothing yt-dlp printed could be read as JSON of either kind. */
  | { readonly kind: "unreadable" };

type Json = Record<string, unknown>;

const youtubeIdPattern = /^[A-Za-z0-9_-]{11}$/;
const maxTitleLength = 1000;
// Entries that are listings themselves (a channel's tabs, a user's albums): a listing of listings is not
// flattened here; the caller names the tab or playlist it wants.
const listingExtractor = /(?:Tab|Playlist|Channel|User|Album|Showcase|Collection|Playlists)$/;

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function durationOf(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

// Entries that are a piece of the listed page, not a page of their own: a job given their URL (the media
// file's) reads it with the generic extractor, which names the video after the file.
const pieceOfPage = /^HTML5MediaEmbed$/i;

/**
 * The id a job gives a URL that yt-dlp lists without an id of its own (a feed's episode, a media file of a
 * page): a known platform's id read from the URL, as at submission; else the generic extractor's, the file's
 * name without its extension, which the job settles under once it has read the URL.
 */
function jobVideoIdOf(url: string): string | null {
  const submitted = readSubmittedVideo(url, "any");
  // A URL a job would refuse is not listed: the client could not send it.
  if (!("videoId" in submitted)) return null;
  if (!submitted.videoId.startsWith(`${unresolvedPlatform}:`)) return submitted.videoId;
  let file: string;
  try {
    file = decodeURIComponent(new URL(url).pathname.replace(/\/+$/, "").split("/").at(-1) ?? "");
  } catch {
    return null;
  }
  const stem = file.replace(/\.[^.]*$/, "");
  return stem === "" ? null : videoIdOfRead("Generic", stem);
}

/** One entry as a listed video, or null for an entry that is not a video vidrows could be given. */
export function listedVideo(entry: unknown): ListedVideo | null {
  if (entry === null || typeof entry !== "object") return null;
  const e = entry as Json;
  if (e._type === "playlist") return null;
  const extractor = text(e.ie_key) ?? text(e.extractor_key) ?? "Generic";
  if (listingExtractor.test(extractor)) return null;
  const ownId = pieceOfPage.test(extractor) ? null : text(e.id);
  if (ownId === null) return unnamedEntry(e);
  const id = ownId;
  const title = text(e.title);
  const common = {
    title: title === null ? null : title.slice(0, maxTitleLength),
    duration_seconds: durationOf(e.duration),
  };
  if (extractor.toLowerCase() === "youtube") {
    if (!youtubeIdPattern.test(id)) return null;
    return { video_id: id, url: `https://www.youtube.com/watch?v=${id}`, ...common };
  }
  const url = entryUrl(e);
  if (url === null) return null;
  return { video_id: videoIdOf(extractor, id), url, ...common };
}

/**
 * An https:// address of an entry as a job would keep it: yt-dlp's smuggled data taken off (a feed's episode
 * with a `<guid>` is listed with it, which a job would otherwise be named by), the host without a final dot.
 */
function listedUrl(value: string | null): string | null {
  if (value === null || !value.startsWith("https://")) return null;
  return pageOf(value)?.href ?? null;
}

/** The entry's https:// address: its own, else its page's. */
function entryUrl(e: Json): string | null {
  return listedUrl(text(e.url)) ?? listedUrl(text(e.webpage_url));
}

/** An entry without an id of its own (a feed's episode, a media file of a page), named as a job names its URL. */
function unnamedEntry(e: Json): ListedVideo | null {
  const url = listedUrl(text(e.url));
  if (url === null) return null;
  const videoId = jobVideoIdOf(url);
  if (videoId === null) return null;
  const title = text(e.title);
  return {
    video_id: videoId,
    url,
    title: title === null ? null : title.slice(0, maxTitleLength),
    duration_seconds: durationOf(e.duration),
  };
}

/** yt-dlp's standard output read into the first `limit` videos and whether more follow. */
export function readListingOutput(stdout: string, limit: number): ListingOutput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return { kind: "unreadable" };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { kind: "unreadable" };
  const info = parsed as Json;
  if (info._type !== "playlist" || !Array.isArray(info.entries)) {
    return typeof info.id === "string" ? { kind: "one-video" } : { kind: "unreadable" };
  }
  const entries = info.entries as unknown[];
  const videos = entries
    .slice(0, limit)
    .map(listedVideo)
    .filter((video): video is ListedVideo => video !== null);
  // A page that lists nothing vidrows can be given has nothing more either.
  return { kind: "listing", videos, hasMore: videos.length > 0 && entries.length > limit };
}
