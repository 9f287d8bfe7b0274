// Which URLs a webhook endpoint may have: exactly as sent, https://, no credentials; http:// only for
// a receiver in one's own network while private targets are allowed (development).
import { strayCharacterIn } from "../domain/stray-characters.js";
import { ApiError } from "../http/api-errors.js";
import { isLoopbackOrPrivateAddress } from "../domain/network-addresses.js";

export interface WebhookUrlRules {
  /** VIDROWS_WEBHOOK_ALLOW_PRIVATE: an http:// URL is accepted for a loopback or private address. */
  readonly allowPrivate: boolean;
}

function refused(message: string): ApiError {
  return new ApiError("invalid_request", message, "url");
}

/**
 * Whether an http:// URL's host is a receiver in one's own network: a literal loopback or private
 * address (`127.0.0.1`, `[::1]`, `192.168.1.20`), or `localhost`, which resolves to loopback by
 * definition (RFC 6761). Any other name is refused, even one that resolves to a private address now:
 * it may resolve elsewhere by the time an event is sent, which would then travel unencrypted.
 */
function isOwnNetworkHost(hostname: string): boolean {
  if (hostname === "localhost") return true;
  return isLoopbackOrPrivateAddress(hostname.replace(/^\[|\]$/g, ""));
}

/** A 400 naming `url` unless it is a URL a webhook endpoint may have under `rules`. */
export function checkWebhookUrl(url: string, rules: WebhookUrlRules): void {
  // Never trimmed: the URL parser would drop leading, trailing, tab and line-break characters, and
  // deliver to a URL other than the one stored and shown.
  const stray = strayCharacterIn(url);
  if (stray !== null) {
    throw refused(
      `\`url\` has ${stray}; send the URL alone, with no spaces, tabs, line breaks or invisible characters around or inside it.`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused("`url` is not a valid URL; send an absolute URL such as https://example.com/hooks.");
  }
  if (parsed.protocol === "http:") {
    if (!rules.allowPrivate) throw refused("`url` must be an https:// URL.");
    if (!isOwnNetworkHost(parsed.hostname)) {
      throw refused(
        `\`url\` must be an https:// URL; http:// is accepted only for localhost or a literal loopback or private address (such as http://127.0.0.1:3000/hooks), and ${parsed.hostname} is not one.`,
      );
    }
  } else if (parsed.protocol !== "https:") {
    throw refused("`url` must be an https:// URL.");
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw refused("`url` must not carry a user name or password; verify our signature instead.");
  }
}
