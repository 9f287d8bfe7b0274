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
  readonly durationSeconds: number | null;
  readonly tracks: readonly YtDlpTrack[];
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
  for (const [key, entries] of Object.entries(map as Record<string, unknown>)) {
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
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null,
    tracks: [...readTrackMap(record.subtitles, false), ...readTrackMap(record.automatic_captions, true)],
  };
}

/**
 * The track to read, by the youtube source's rules: the asked language (manual before automatic), else the
 * spoken one, which the automatic track tells, as YouTube recognises speech in the video's own language.
 */
export function chooseYtDlpTrack(info: YtDlpInfo, language: string | undefined): YtDlpTrack | null {
  const spoken = info.tracks.find((track) => track.kind === "asr")?.languageCode ?? null;
  return pickTrack(info.tracks, language, spoken);
}
