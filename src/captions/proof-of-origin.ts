// Telling a caption track URL that will answer empty unless a proof-of-origin (PO) token comes along.

/**
 * Since 2025 YouTube marks such URLs with an experiment flag in `exp` (`xpe`, and lately `xpv` too); they
 * answer HTTP 200 with an empty body without a `pot` parameter. yt-dlp skips such tracks unless a token
 * provider plugin supplies one; youtube-transcript-api raises its PoTokenRequired for them. Either way it
 * is the platform withholding captions from this client, never a video without captions.
 */
export function needsProofOfOrigin(url: URL): boolean {
  if (url.searchParams.has("pot")) return false;
  const experiments = url.searchParams.getAll("exp").flatMap((value) => value.split(","));
  return experiments.some((flag) => flag === "xpe" || flag === "xpv");
}
