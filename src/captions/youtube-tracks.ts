// Choosing one of a video's caption tracks: the asked language (or the video's own), manual before automatic.

export interface CaptionTrack {
  readonly baseUrl: string;
  readonly languageCode: string;
  /** "asr" for automatic speech recognition; absent for captions a person wrote. */
  readonly kind?: string;
}

export interface CaptionTracklist {
  captionTracks?: unknown;
  audioTracks?: unknown;
  defaultAudioTrackIndex?: unknown;
}

/** The well-formed tracks of a tracklist; anything without a URL or a language is left out. */
export function readTracks(tracklist: CaptionTracklist | undefined): CaptionTrack[] {
  if (!Array.isArray(tracklist?.captionTracks)) return [];
  return tracklist.captionTracks.filter(
    (track): track is CaptionTrack =>
      typeof track?.baseUrl === "string" && track.baseUrl !== "" && typeof track.languageCode === "string",
  );
}

const isAutomatic = (track: CaptionTrack) => track.kind === "asr";
const primarySubtag = (tag: string) => tag.toLowerCase().split(/[-_]/)[0] ?? "";

/** A track in the language, manual before automatic and an exact tag before a primary-subtag match. */
function trackInLanguage(tracks: readonly CaptionTrack[], language: string): CaptionTrack | null {
  const wanted = language.toLowerCase();
  const exact = (track: CaptionTrack) => track.languageCode.toLowerCase() === wanted;
  const primary = (track: CaptionTrack) => primarySubtag(track.languageCode) === primarySubtag(wanted);
  for (const automatic of [false, true]) {
    const ofKind = tracks.filter((track) => isAutomatic(track) === automatic);
    const found = ofKind.find(exact) ?? ofKind.find(primary);
    if (found) return found;
  }
  return null;
}

/** The language the video is spoken in, as far as the tracklist tells: automatic captions follow speech. */
function spokenLanguage(tracks: readonly CaptionTrack[], tracklist: CaptionTracklist): string | null {
  const automatic = tracks.find(isAutomatic);
  if (automatic) return automatic.languageCode;
  const audioTracks = Array.isArray(tracklist.audioTracks) ? tracklist.audioTracks : [];
  const audioIndex =
    typeof tracklist.defaultAudioTrackIndex === "number" ? tracklist.defaultAudioTrackIndex : 0;
  const captionIndex = audioTracks[audioIndex]?.defaultCaptionTrackIndex;
  const captionTracks = Array.isArray(tracklist.captionTracks) ? tracklist.captionTracks : [];
  const languageCode =
    typeof captionIndex === "number" ? captionTracks[captionIndex]?.languageCode : undefined;
  return typeof languageCode === "string" ? languageCode : null;
}

/**
 * The track to read: in the asked language when one was asked (null when there is none in it), else in the
 * video's own language, else the first manual track, else the first track.
 */
export function chooseTrack(tracklist: CaptionTracklist, language: string | undefined): CaptionTrack | null {
  const tracks = readTracks(tracklist);
  if (tracks.length === 0) return null;
  if (language !== undefined && language !== "") return trackInLanguage(tracks, language);
  const spoken = spokenLanguage(tracks, tracklist);
  const inSpoken = spoken === null ? null : trackInLanguage(tracks, spoken);
  return inSpoken ?? tracks.find((track) => !isAutomatic(track)) ?? tracks[0] ?? null;
}
