// Choosing one of a video's caption tracks: the asked language (or the video's own), manual before automatic.

/** What choosing a track needs to know of it, whichever source listed it. */
export interface LanguageTrack {
  readonly languageCode: string;
  /** "asr" for automatic speech recognition; absent for captions a person wrote. */
  readonly kind?: string;
}

export interface CaptionTrack extends LanguageTrack {
  readonly baseUrl: string;
}

export interface CaptionTracklist {
  captionTracks?: unknown;
  audioTracks?: unknown;
  defaultAudioTrackIndex?: unknown;
}

/**
 * The well-formed tracks of a tracklist; anything without a URL or a language is left out, and so is a
 * machine translation (a `tlang` in its URL): only what was said or written is a transcript.
 */
export function readTracks(tracklist: CaptionTracklist | undefined): CaptionTrack[] {
  if (!Array.isArray(tracklist?.captionTracks)) return [];
  return tracklist.captionTracks.filter(
    (track): track is CaptionTrack =>
      typeof track?.baseUrl === "string" &&
      track.baseUrl !== "" &&
      typeof track.languageCode === "string" &&
      !/[?&]tlang=/.test(track.baseUrl),
  );
}

const isAutomatic = (track: LanguageTrack) => track.kind === "asr";
const primarySubtag = (tag: string) => tag.toLowerCase().split(/[-_]/)[0] ?? "";

/** A track in the language, manual before automatic and an exact tag before a primary-subtag match. */
function trackInLanguage<T extends LanguageTrack>(tracks: readonly T[], language: string): T | null {
  const wanted = language.toLowerCase();
  const exact = (track: T) => track.languageCode.toLowerCase() === wanted;
  const primary = (track: T) => primarySubtag(track.languageCode) === primarySubtag(wanted);
  for (const automatic of [false, true]) {
    const ofKind = tracks.filter((track) => isAutomatic(track) === automatic);
    const found = ofKind.find(exact) ?? ofKind.find(primary);
    if (found) return found;
  }
  return null;
}

/**
 * The language the video is spoken in, as far as the player answer tells. First what it says of the audio:
 * the default audio track's default caption track, which the platform picks in the audio's language. Only
 * without that the automatic track, whose label is the platform's guess from the speech (and sometimes
 * wrong: an English video with an automatic track labelled "ja" exists).
 */
function spokenLanguage(tracks: readonly CaptionTrack[], tracklist: CaptionTracklist): string | null {
  return audioCaptionLanguage(tracklist) ?? tracks.find(isAutomatic)?.languageCode ?? null;
}

/** The language of the default audio track's default caption track, when the tracklist names one. */
export function audioCaptionLanguage(tracklist: CaptionTracklist): string | null {
  const audioTracks = Array.isArray(tracklist.audioTracks) ? tracklist.audioTracks : [];
  const audioIndex =
    typeof tracklist.defaultAudioTrackIndex === "number" ? tracklist.defaultAudioTrackIndex : 0;
  const captionIndex = audioTracks[audioIndex]?.defaultCaptionTrackIndex;
  const captionTracks = Array.isArray(tracklist.captionTracks) ? tracklist.captionTracks : [];
  const languageCode =
    typeof captionIndex === "number" ? captionTracks[captionIndex]?.languageCode : undefined;
  return typeof languageCode === "string" && languageCode !== "" ? languageCode : null;
}

/**
 * The track to read: in the asked language when one was asked (null when there is none in it), else in the
 * spoken language (when known), else the first manual track, else the first track.
 */
export function pickTrack<T extends LanguageTrack>(
  tracks: readonly T[],
  language: string | undefined,
  spoken: string | null,
): T | null {
  if (tracks.length === 0) return null;
  if (language !== undefined && language !== "") return trackInLanguage(tracks, language);
  const inSpoken = spoken === null ? null : trackInLanguage(tracks, spoken);
  return inSpoken ?? tracks.find((track) => !isAutomatic(track)) ?? tracks[0] ?? null;
}

/** The track of a player response's tracklist to read (see pickTrack). */
export function chooseTrack(tracklist: CaptionTracklist, language: string | undefined): CaptionTrack | null {
  const tracks = readTracks(tracklist);
  return pickTrack(tracks, language, spokenLanguage(tracks, tracklist));
}
