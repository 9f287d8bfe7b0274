// What a video costs: per started minute of its duration, at least one minute; one credit a minute for
// captions, the plan's transcription rate for a video transcribed from its audio.

export function creditsForDuration(durationSeconds: number, creditsPerMinute = 1): number {
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return creditsPerMinute;
  return Math.max(1, Math.ceil(durationSeconds / 60)) * creditsPerMinute;
}
