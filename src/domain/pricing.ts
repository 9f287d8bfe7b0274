// What a video costs: per started minute of its duration, at least one minute; one credit a minute for
// captions, the plan's transcription rate for a video transcribed from its audio. The duration is taken in
// whole seconds, as the video's `duration_seconds` shows it, so that a client can work the charge out from
// it: 60.02 s of audio (an encoder's start delay) is 60 s and one minute.

export function creditsForDuration(durationSeconds: number, creditsPerMinute = 1): number {
  const seconds = Math.round(durationSeconds);
  if (!Number.isFinite(seconds) || seconds <= 0) return creditsPerMinute;
  return Math.max(1, Math.ceil(seconds / 60)) * creditsPerMinute;
}
