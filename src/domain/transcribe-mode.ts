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
