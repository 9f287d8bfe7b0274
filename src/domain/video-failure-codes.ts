// Why a video can fail: the per-video error codes a job's results and its videos carry, one closed list.

/**
 * Every code a failed video can carry (interface §3, contract §11 and §12). The OpenAPI document lists
 * them as an enum, so that generated clients can branch on them; the suites check every answer against
 * that document, so a failure with a code missing here fails them.
 */
export const videoFailureCodes = [
  "no_captions",
  "video_unavailable",
  "captions_unavailable",
  "transcription_failed",
  "extraction_failed",
  "insufficient_credits",
  "hard_cap_reached",
  "cancelled",
] as const;

export type VideoFailureCode = (typeof videoFailureCodes)[number];
