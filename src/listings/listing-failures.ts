// Why a listing could not be had, as the API's errors: the address at fault (400), nothing there (404),
// too many of the workspace's listings already waiting (429 `rate_limited`, with Retry-After),
// the server without yt-dlp (503 `listing_unavailable`), or the platform refusing or not answering (503
// `platform_unavailable`, with Retry-After: asking again later may work).
import { ApiError } from "../http/api-errors.js";
import { refusedAddressMessage } from "../platforms/egress/egress-guard.js";
import { EgressRefused } from "../platforms/platform-access.js";
import { PlatformError } from "../platforms/platform-error.js";
import { ProgramNotRunnable, ProgramStopped } from "../platforms/programs.js";
import { messageSubject } from "../platforms/ytdlp-failures.js";
import { readYtDlpMessages, shortened } from "../platforms/ytdlp-messages.js";

// The listing itself is missing, private or empty of the asked kind: a fact, not worth retrying.
const nothingThere = [
  /HTTP Error 404|404: Not Found/i,
  /does not exist|doesn[’']t exist/i,
  /\bprivate\b/i,
  /does not have an? \w+ tab|has no (?:videos|shorts|streams|uploads)/i,
  /has been terminated|has been removed|no longer available/i,
  /playlist (?:is|was) (?:unavailable|not found)|This (?:channel|playlist|account) is (?:not available|unavailable)/i,
  /members[- ]only|Join this channel/i,
];

export function platformRefused(detail: string): ApiError {
  return new ApiError(
    "platform_unavailable",
    `The platform refused the listing or did not answer in time; try again in a minute (${detail}).`,
  );
}

/** The 429 for a workspace with as many listings waiting for this process's slots as it may have. */
export class ListingQueueFull extends ApiError {
  constructor(
    waiting: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      "rate_limited",
      `This workspace already has ${waiting} listings waiting for a turn on this server; ` +
        `retry in ${retryAfterSeconds} s, or wait for one of them to answer before asking for more.`,
    );
  }
}

/** The 503 for a server without yt-dlp, or with one too old to understand the listing's command line. */
export function listingUnavailable(why: string): ApiError {
  return new ApiError(
    "listing_unavailable",
    `Listing playlists and channels needs yt-dlp on the server: ${why} The server's operator installs it ` +
      "(pipx install yt-dlp, or the release binary) or sets VIDROWS_YTDLP_PATH.",
  );
}

/** The error for a yt-dlp run that ended with a non-zero exit code. */
export function listingRunFailure(exitCode: number | null, stderr: string): ApiError {
  const messages = readYtDlpMessages(stderr);
  if (exitCode === 2 && /error: (?:no such option|invalid|unrecognized)/i.test(messages.all)) {
    return listingUnavailable("the installed yt-dlp refused its command line, so it is too old.");
  }
  const said = shortened(messages.errors.join(" ") || messages.all || `exit code ${exitCode}`, 300);
  if (/Unsupported URL|is not a valid URL/i.test(said)) {
    return new ApiError(
      "invalid_request",
      "`from` is not an address yt-dlp can read a playlist or channel from.",
      "from",
    );
  }
  // A 404 is the listing's absence; every other refusal (a block, a limit, a page that would not load) is us.
  if (!/HTTP Error 404/i.test(said) && messageSubject(said) === "refused") return platformRefused(said);
  if (nothingThere.some((pattern) => pattern.test(said))) {
    return new ApiError(
      "listing_not_found",
      `Nothing to list at \`from\`: the playlist or channel does not exist, is private, or has none of the asked videos (${said}).`,
      "from",
    );
  }
  // Anything unrecognised (a network error, an extractor broken by a platform change) may pass later.
  return platformRefused(said);
}

/** The error for a run that did not end by itself, or could not start. */
export function listingRunError(error: unknown): unknown {
  if (error instanceof EgressRefused) {
    return new ApiError("invalid_request", `\`from\`: ${refusedAddressMessage}.`, "from");
  }
  if (error instanceof ProgramNotRunnable)
    return listingUnavailable(`yt-dlp could not be run (${error.code}).`);
  if (error instanceof ProgramStopped) return platformRefused(error.message);
  // The cookies file became unusable since start-up: the operator's to fix; asking again may work then.
  if (error instanceof PlatformError) return platformRefused(error.message);
  return error;
}
