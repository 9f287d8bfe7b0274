// Reading the video info that `yt-dlp --dump-single-json` prints: its length and its caption tracks, written
// by people (`subtitles`) or recognised from speech (`automatic_captions`), each offered in several formats.
import type { CaptionFormat } from "./caption-formats.js";
import { type LanguageTrack, pickTrack } from "./youtube-tracks.js";

export interface YtDlpTrack extends LanguageTrack {
  /** yt-dlp's name for the track ("en", "en-orig", "pt-BR"). */
  readonly key: string;
  readonly url: string;
  readonly format: CaptionFormat;
}

export interface YtDlpInfo {
  readonly id: string | null;
  /** The extractor that read the page, as yt-dlp names it ("Youtube", "Vimeo", "TikTok", "Generic"). */
  readonly extractorKey: string | null;
  /** The video's page as yt-dlp gives it (an https:// or http:// URL), where the platform has one. */
  readonly webpageUrl: string | null;
  readonly durationSeconds: number | null;
  readonly tracks: readonly YtDlpTrack[];
  /**
   * The language of the video's original (else default) audio track, as the player answer's audio tracks
   * name it; yt-dlp marks those formats with a language_preference of 10 (original) or 5 (default). Null for
   * a video with one audio track, whose formats carry no such mark.
   */
  readonly audioLanguage: string | null;
  /**
   * yt-dlp's `availability`, read from the player answer: `private`, `premium_only`, `subscriber_only`,
   * `needs_auth`, `unlisted`, `public`, or null when it did not say.
   */
  readonly availability: string | null;
}

interface SubtitleEntry {
  ext?: unknown;
  url?: unknown;
}

// The formats we read, best first: json3 carries YouTube's own timing without the rolling repeats of its
// automatic WebVTT, and it is what the youtube source reads, so both give the same transcript.
const readable: ReadonlyArray<readonly [string, CaptionFormat]> = [
  ["json3", "json3"],
  ["vtt", "vtt"],
  ["srt", "srt"],
];

function httpUrl(value: unknown): URL | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/**
 * The tracks of one map, in a format we read. Machine translations (a `tlang` in the URL; yt-dlp lists one
 * per language YouTube can translate into) are left out: only what was said or written is a transcript.
 */
function readTrackMap(map: unknown, automatic: boolean): YtDlpTrack[] {
  if (typeof map !== "object" || map === null || Array.isArray(map)) return [];
  const tracks: YtDlpTrack[] = [];
  // "-orig" first, so that the one kept of "en-orig" and "en" (the same track) says it is the original.
  const byKey = Object.entries(map as Record<string, unknown>).sort(
    ([a], [b]) => Number(b.endsWith("-orig")) - Number(a.endsWith("-orig")),
  );
  for (const [key, entries] of byKey) {
    if (key === "live_chat" || !Array.isArray(entries)) continue;
    for (const [ext, format] of readable) {
      const entry = (entries as SubtitleEntry[]).find((candidate) => candidate?.ext === ext);
      const url = httpUrl(entry?.url);
      if (url === null) continue;
      if (url.searchParams.has("tlang")) break;
      // The track's own language, as the platform names it, rather than yt-dlp's key ("en-orig").
      const languageCode = url.searchParams.get("lang") || key.replace(/-orig$/, "");
      tracks.push({ key, url: url.href, format, languageCode, ...(automatic ? { kind: "asr" } : {}) });
      break;
    }
  }
  // yt-dlp lists the original automatic track twice, as "en" and as "en-orig": keep one.
  return tracks.filter(
    (track, i) => tracks.findIndex((other) => other.languageCode === track.languageCode) === i,
  );
}

interface FormatEntry {
  acodec?: unknown;
  language?: unknown;
  language_preference?: unknown;
}

/** The language of the audio formats marked original, else default (see YtDlpInfo.audioLanguage). */
function markedAudioLanguage(formats: unknown): string | null {
  if (!Array.isArray(formats)) return null;
  let best: { language: string; preference: number } | null = null;
  for (const format of formats as FormatEntry[]) {
    if (typeof format !== "object" || format === null || format.acodec === "none") continue;
    const preference = typeof format.language_preference === "number" ? format.language_preference : -1;
    if (typeof format.language !== "string" || format.language === "" || preference < 5) continue;
    if (best === null || preference > best.preference) best = { language: format.language, preference };
  }
  return best?.language ?? null;
}

/** The info's parts we use; null when the text is not a yt-dlp info object. */
export function readYtDlpInfo(text: string): YtDlpInfo | null {
  let info: unknown;
  try {
    info = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof info !== "object" || info === null || Array.isArray(info)) return null;
  const record = info as Record<string, unknown>;
  const duration = Number(record.duration);
  return {
    id: typeof record.id === "string" ? record.id : null,
    extractorKey: typeof record.extractor_key === "string" ? record.extractor_key : null,
    webpageUrl: httpUrl(record.webpage_url)?.href ?? null,
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null,
    tracks: [...readTrackMap(record.subtitles, false), ...readTrackMap(record.automatic_captions, true)],
    audioLanguage: markedAudioLanguage(record.formats),
    availability: typeof record.availability === "string" ? record.availability : null,
  };
}

/**
 * The language the video is spoken in, as far as yt-dlp tells: its marked audio track, else what the player
 * answers it saved say of the audio (`playerLanguage`, see ytdlp-player-pages.ts), else the automatic track
 * it names "-orig" (YouTube's label for the speech, sometimes wrong), else the first automatic track.
 */
export function spokenYtDlpLanguage(info: YtDlpInfo, playerLanguage: string | null = null): string | null {
  if (info.audioLanguage !== null) return info.audioLanguage;
  if (playerLanguage !== null) return playerLanguage;
  const automatic = info.tracks.filter((track) => track.kind === "asr");
  return (automatic.find((track) => track.key.endsWith("-orig")) ?? automatic[0])?.languageCode ?? null;
}

/** What choosing a track found: the track, or why there is none. */
export type YtDlpChoice =
  { readonly track: YtDlpTrack } | { readonly track: null; readonly why: "none_in_language" | "left_out" };

const primarySubtag = (tag: string) => tag.toLowerCase().split(/[-_]/)[0] ?? "";

/**
 * The track to read, by the youtube source's rules: the asked language (manual before automatic), else the
 * spoken one. When yt-dlp left tracks out for want of a token (`leftOutManual` not null: the written
 * languages it names), only a track in the wanted language will do, and only if no better one of it was
 * left out: never a track of another language, nor an automatic one where a written one was dropped.
 */
export function chooseYtDlpTrack(
  info: YtDlpInfo,
  language: string | undefined,
  leftOutManual: readonly string[] | null = null,
  playerLanguage: string | null = null,
): YtDlpChoice {
  const spoken = spokenYtDlpLanguage(info, playerLanguage);
  const asked = language !== undefined && language !== "" ? language : null;
  if (leftOutManual === null) {
    const track = pickTrack(info.tracks, language, spoken);
    return track === null ? { track: null, why: "none_in_language" } : { track };
  }
  const wanted = asked ?? spoken;
  if (wanted === null) return { track: null, why: "left_out" };
  const track = pickTrack(info.tracks, wanted, null);
  if (track === null) return { track: null, why: "left_out" };
  const writtenLeftOut = leftOutManual.some((code) => primarySubtag(code) === primarySubtag(wanted));
  if (track.kind === "asr" && writtenLeftOut) return { track: null, why: "left_out" };
  return { track };
}
