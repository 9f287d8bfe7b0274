// What yt-dlp's messages say about a video, mapped to the contract's per-video codes the way the youtube
// source maps the platform's answers: about the video is final, about us (a block, a limit, a client the
// platform turned away, a token we lack) is retryable. yt-dlp says these as ERROR lines with a non-zero exit,
// or, with --ignore-no-formats-error, as WARNING lines with exit code 0 and a video info without captions.
import { PlatformError } from "./platform-error.js";
import { readYtDlpMessages, shortened, type YtDlpMessages } from "./ytdlp-messages.js";

// The platform stopping us, whatever yt-dlp adds around it. "Video unavailable. This content isn't
// available, try again later." is YouTube's per-session rate limit and "This video is not available" what a
// client that may not play made-for-kids videos is told: neither is a fact about the video, so these are
// tested before the video patterns below.
const refusedUs = [
  /not a bot|captcha/i,
  /HTTP Error 4(?:29|03)|Too Many Requests|Forbidden/i,
  /try again later/i,
  /rate[- ]limit/i,
  /not available on this app|This video is not available\b(?! in your country)/i,
  /PO token|proof of origin/i,
  /Precondition check failed|\bupdate\b.{0,40}\b(?:app|version|client)|latest version of (?:YouTube|the app)/i,
  /player responses are invalid|Failed to extract any player response|IP is likely being blocked/i,
  /Unable to download (?:API page|webpage)|timed out|Connection (?:refused|reset)|Temporary failure/i,
];

// Facts about the video: private, removed, never existed, region-locked, members-only, paid, age-gated.
const aboutTheVideo = [
  /Private video/i,
  /Video unavailable|This video is unavailable|isn[’']t available anymore/i,
  /has been removed/i,
  /account associated with this video has been terminated/i,
  /not made this video available in your country|not available (?:in your country|from your location)/i,
  /members[- ]only|Join this channel/i,
  /requires payment|Music Premium/i,
  /confirm your age|age[- ]restricted|inappropriate for some users/i,
  /Incomplete YouTube ID|is not a valid URL|Unsupported URL/i,
];

/** What one message speaks of: us (refused), the video, or neither (a note about formats, a deprecation). */
export function messageSubject(text: string): "refused" | "video" | null {
  // Formats held back for want of a token, none found, or a format manifest (HLS, DASH) that would not
  // download: media, which captions do not need, whatever status the manifest's server answered.
  if (
    /\bformats?\b|\bm3u8\b|\bmpd\b|manifest|\bDASH\b|\bHLS\b/i.test(text) &&
    !/subtitle|caption/i.test(text)
  ) {
    return null;
  }
  // The page is not there: a fact about the address, whatever is said around it.
  if (/HTTP Error 4(?:04|10)\b/i.test(text)) return "video";
  if (refusedUs.some((pattern) => pattern.test(text))) return "refused";
  if (aboutTheVideo.some((pattern) => pattern.test(text))) return "video";
  return null;
}

function errorFor(subject: "refused" | "video", message: string): PlatformError {
  return new PlatformError(subject === "video" ? "video_unavailable" : "captions_unavailable", message);
}

/** Why a yt-dlp run that ended with a non-zero `exitCode` gave no info for the video. */
export function ytDlpFailure(exitCode: number | null, stderr: string, videoId: string): PlatformError {
  const messages = readYtDlpMessages(stderr);
  if (exitCode === 2 && /error: (?:no such option|invalid|unrecognized)/i.test(messages.all)) {
    // Exit code 2 is a command line yt-dlp does not understand: an old release.
    return new PlatformError(
      "captions_unavailable",
      `yt-dlp refused its command line (update it with yt-dlp -U or pipx upgrade yt-dlp): ${shortened(messages.all)}`,
    );
  }
  const said = messages.errors.join(" ") || shortened(messages.all);
  const message = `yt-dlp, for ${videoId}: ${said || `exit code ${exitCode}, no message`}`;
  // Anything unrecognised (a network error, an extractor broken by a platform change) may pass, or pass with
  // an update: retryable.
  const subject = messageSubject(said) ?? "refused";
  return errorFor(subject, shortened(message, 400));
}

/**
 * Why a run that ended well (exit code 0) gave no usable captions, when its warnings say: the playability
 * reasons yt-dlp reports as warnings under --ignore-no-formats-error. Null when no warning explains it, so
 * the video has no captions. A warning about us wins over one about the video, as with the errors.
 */
export function ytDlpWarnedFailure(messages: YtDlpMessages, videoId: string): PlatformError | null {
  const subjects = messages.warnings.map((text) => ({ text, subject: messageSubject(text) }));
  const telling =
    subjects.find((warning) => warning.subject === "refused") ??
    subjects.find((warning) => warning.subject === "video");
  if (telling === undefined || telling.subject === null) return null;
  return errorFor(telling.subject, shortened(`yt-dlp, for ${videoId}: ${telling.text}`, 400));
}

/**
 * Caption tracks yt-dlp left out for want of a proof-of-origin token: the languages of the written ones it
 * names, or null when it warned of none. yt-dlp stops reading a client's track list at the first track that
 * needs a token, so every track after it is missing too, whatever their language.
 */
export function tracksLeftOut(
  messages: YtDlpMessages,
): { readonly manualLanguages: readonly string[] } | null {
  const warning = messages.warnings.find((text) =>
    /(?:subtitles|captions).{0,120}PO token|PO token.{0,120}(?:subtitles|captions)/i.test(text),
  );
  if (warning === undefined) return null;
  const named = /Subtitles for these languages are missing: ([^.]*)\./i.exec(warning)?.[1] ?? "";
  return {
    manualLanguages: named
      .split(",")
      .map((language) => language.trim())
      .filter((language) => language !== ""),
  };
}
