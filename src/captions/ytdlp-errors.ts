// What yt-dlp's ERROR lines say about a video, mapped to the contract's per-video codes the way the youtube
// source maps the platform's answers: about the video is final, about us (a block, a limit) is retryable.
import { CaptionError } from "./caption-source.js";

// The platform stopping us, whatever yt-dlp adds around it. "Video unavailable. This content isn't
// available, try again later." is YouTube's per-session rate limit, not a fact about the video, so these
// are tested before the video patterns below.
const refusedUs = [
  /not a bot/i,
  /HTTP Error 429|Too Many Requests/i,
  /try again later/i,
  /rate[- ]limit/i,
  /not available on this app/i,
  /PO token/i,
  /Precondition check failed/i,
];

// Facts about the video: private, removed, never existed, region-locked, members-only, paid, age-gated.
const aboutTheVideo = [
  /Private video/i,
  /Video unavailable/i,
  /This video is (?:no longer )?(?:un)?available/i,
  /has been removed/i,
  /account associated with this video has been terminated/i,
  /not made this video available in your country|not available in your country/i,
  /members[- ]only|Join this channel/i,
  /requires payment|Music Premium/i,
  /confirm your age|age[- ]restricted|inappropriate for some users/i,
  /Incomplete YouTube ID|is not a valid URL/i,
];

// Colour codes, should a user's configuration ask for them.
const ansiEscape = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** The lines yt-dlp marked as errors; its whole standard error when it marked none. */
function errorLines(stderr: string): string {
  const lines = stderr.replace(ansiEscape, "").split(/\r?\n/);
  const errors = lines.filter((line) => line.startsWith("ERROR:"));
  return (errors.length > 0 ? errors : lines).join(" ").replace(/\s+/g, " ").trim();
}

/** A message short enough for a video's error: yt-dlp's ERROR lines, without its hints and links. */
function said(text: string): string {
  const plain = text.replace(/ERROR:\s*/g, "").replace(/\s*(?:Use --cookies|See {1,2}https?:\/\/).*$/i, "");
  return plain.length > 300 ? `${plain.slice(0, 300)}…` : plain;
}

/** Why a yt-dlp run that ended with exit code `exitCode` gave no info for the video. */
export function ytDlpFailure(exitCode: number | null, stderr: string, videoId: string): CaptionError {
  const text = errorLines(stderr);
  if (exitCode === 2 && /error: (?:no such option|invalid|unrecognized)/i.test(text)) {
    // Exit code 2 is a command line yt-dlp does not understand: an old release.
    return new CaptionError(
      "captions_unavailable",
      `yt-dlp refused its command line (update it with yt-dlp -U or pipx upgrade yt-dlp): ${said(text)}`,
    );
  }
  const message = `yt-dlp, for ${videoId}: ${said(text) || `exit code ${exitCode}, no message`}`;
  if (refusedUs.some((pattern) => pattern.test(text)))
    return new CaptionError("captions_unavailable", message);
  if (aboutTheVideo.some((pattern) => pattern.test(text)))
    return new CaptionError("video_unavailable", message);
  // Anything else (a network error, an extractor broken by a platform change) may pass, or pass with an update.
  return new CaptionError("captions_unavailable", message);
}

/** Whether yt-dlp warned that it left caption tracks out because it had no proof-of-origin token. */
export function warnedOfMissingTokens(stderr: string): boolean {
  // Not its warnings about video formats missing for want of a token: those do not touch captions.
  return /(?:subtitles|captions).{0,120}PO token|PO token.{0,120}(?:subtitles|captions)/i.test(
    stderr.replace(ansiEscape, ""),
  );
}
