// Reading the player endpoint's `playabilityStatus`: is the video itself out of reach (video_unavailable),
// or did the platform refuse us (captions_unavailable, worth retrying from elsewhere or later)?
import { PlatformError, type PlatformErrorDetail } from "../platforms/platform-error.js";

interface TextNode {
  simpleText?: unknown;
  runs?: unknown;
}

export interface PlayabilityStatus {
  status?: unknown;
  reason?: unknown;
  reasonTitle?: unknown;
  desktopLegacyAgeGateReason?: unknown;
  errorScreen?: {
    playerErrorMessageRenderer?: { reason?: TextNode; subreason?: TextNode };
    confirmDialogRenderer?: { title?: TextNode; dialogMessages?: unknown };
  };
}

// The platform's words when it takes us for a robot (cloud addresses, too many requests), or limits the
// session ("This content isn't available, try again later", said with status ERROR): about us, not the video.
const botCheck = /not a bot|unusual traffic|automated queries|confirm you[’']re not|try again later/i;
const ageGate = /\bage\b|age-restricted|inappropriate for some users/i;
const privateVideo = /\bprivate\b/i;
// Said to a client the platform will not serve this video to, not about the video: "not available on this
// app", an outdated client told to update or to "Watch on the latest version of YouTube" (said beside "This
// video is unavailable"), and "This video is not available", which the headset clients are told for
// made-for-kids videos that other clients play.
const clientRefused = /(?:on|in) this app|\bupdate\b|latest version of|^This video is not available\.?$/i;

// Statuses that speak about the video: removed, never existed, region-locked, members-only, age-gated.
const videoStatuses = new Set([
  "ERROR",
  "UNPLAYABLE",
  "AGE_CHECK_REQUIRED",
  "AGE_VERIFICATION_REQUIRED",
  "CONTENT_CHECK_REQUIRED",
  "LIVE_STREAM_OFFLINE",
]);

function nodeText(node: TextNode | undefined): string {
  if (node === undefined || node === null) return "";
  if (typeof node.simpleText === "string") return node.simpleText;
  if (!Array.isArray(node.runs)) return "";
  return node.runs.map((run) => (typeof run?.text === "string" ? run.text : "")).join("");
}

/** Every reason the platform gives, each once. */
function reasons(playability: PlayabilityStatus): string[] {
  const texts = [
    typeof playability.reason === "string" ? playability.reason : "",
    typeof playability.reasonTitle === "string" ? playability.reasonTitle : "",
    nodeText(playability.errorScreen?.playerErrorMessageRenderer?.reason),
    nodeText(playability.errorScreen?.playerErrorMessageRenderer?.subreason),
    nodeText(playability.errorScreen?.confirmDialogRenderer?.title),
  ];
  const dialog = playability.errorScreen?.confirmDialogRenderer?.dialogMessages;
  if (Array.isArray(dialog)) texts.push(...dialog.map((message) => nodeText(message)));
  return texts.map((text) => text.trim()).filter((text, i, all) => text !== "" && all.indexOf(text) === i);
}

/**
 * The platform refusing the client we said we are, not the video nor our address: another client may be
 * served. Its code is captions_unavailable, should no client be served.
 */
export class ClientRefusal extends PlatformError {
  constructor(message: string, detail: PlatformErrorDetail = {}) {
    super("captions_unavailable", message, detail);
  }
}

/**
 * Null when the video plays; else the PlatformError that says why not, with the platform's reason: a
 * ClientRefusal when another client may fare better.
 */
export function playabilityError(
  playability: PlayabilityStatus | undefined,
  videoId: string,
): PlatformError | null {
  if (playability === undefined || playability === null) return null;
  const status = typeof playability.status === "string" ? playability.status : "";
  if (status === "" || status === "OK") return null;
  const given = reasons(playability);
  const why = given.join(" / ") || "no reason given";
  const said = `YouTube says ${status} for ${videoId}: ${why}`;
  if (botCheck.test(why))
    return new PlatformError("captions_unavailable", `${said} (a bot check or a rate limit).`);
  if (status === "LOGIN_REQUIRED") {
    const ageGated = playability.desktopLegacyAgeGateReason !== undefined || ageGate.test(why);
    if (ageGated || privateVideo.test(why)) return new PlatformError("video_unavailable", `${said}.`);
    // Sign-in demanded with no reason about the video: the platform does not want to serve this client.
    return new ClientRefusal(`${said}.`);
  }
  if (videoStatuses.has(status) && !given.some((reason) => clientRefused.test(reason)))
    return new PlatformError("video_unavailable", `${said}.`);
  // An unknown status, or a refusal of our client rather than of the video: maybe later, maybe elsewhere.
  return new ClientRefusal(`${said}.`);
}
