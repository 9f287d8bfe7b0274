// When a video is transcribed from its audio (`transcribe` of POST /v1): only without captions, never, or always.

export const transcribeModes = ["auto", "never", "always"] as const;
export type TranscribeMode = (typeof transcribeModes)[number];

/** As a job stores it: `auto`, the default, is stored as null so that older jobs read as it. */
export type StoredTranscribeMode = Exclude<TranscribeMode, "auto">;

export function storedTranscribeMode(mode: TranscribeMode | undefined): StoredTranscribeMode | null {
  return mode === undefined || mode === "auto" ? null : mode;
}

export function transcribeModeOf(stored: string | null): TranscribeMode {
  return stored === "never" || stored === "always" ? stored : "auto";
}

/**
 * What is known of a video's captions when its words are decided: usable ones were read, it is known to have
 * none (no track, or a track without words), or they were not asked for.
 */
export type CaptionsFound = "usable" | "none" | "not_asked";

/**
 * Whether a video's audio is transcribed: always when the job says `always` (captions are then not asked
 * for); with `auto`, only for a video known to have no usable captions and where speech-to-text is set up
 * (a platform that refused us may let the captions through later, and an unavailable video has no audio).
 */
export function transcribesAudio(
  mode: TranscribeMode,
  captions: CaptionsFound,
  speechToTextConfigured: boolean,
): boolean {
  if (mode === "always") return true;
  return mode === "auto" && captions === "none" && speechToTextConfigured;
}
