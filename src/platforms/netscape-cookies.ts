// VIDROWS_YOUTUBE_COOKIES: a cookies file in the Netscape format (what browser extensions export and what
// yt-dlp's --cookies reads), and the Cookie header it gives a request to the platform.
import { readFile } from "node:fs/promises";

export interface Cookie {
  readonly domain: string;
  readonly includeSubdomains: boolean;
  readonly path: string;
  readonly secure: boolean;
  /** Seconds since 1970; 0 for a session cookie. */
  readonly expires: number;
  readonly name: string;
  readonly value: string;
}

/** A file that is not a Netscape cookies file. */
export class CookiesFileError extends Error {}

/**
 * The cookies of a Netscape cookies file: seven tab-separated fields a line; `#` lines are comments, except
 * `#HttpOnly_` which marks an HttpOnly cookie. Throws CookiesFileError for a file with no cookie line, or
 * with a line of another shape (a JSON export, a header copied from a browser).
 */
export function parseNetscapeCookies(text: string): Cookie[] {
  const cookies: Cookie[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.startsWith("#HttpOnly_") ? raw.slice("#HttpOnly_".length) : raw;
    if (line.trim() === "" || line.startsWith("#")) return;
    const fields = line.split("\t");
    const [domain = "", flag, path = "/", secure, expires = "0", name = "", value = ""] = fields;
    if (fields.length !== 7 || domain === "" || name === "" || !/^-?\d+(?:\.\d+)?$/.test(expires)) {
      throw new CookiesFileError(`line ${index + 1} is not a cookie in the Netscape format (7 fields, tabs)`);
    }
    cookies.push({
      domain: domain.toLowerCase(),
      includeSubdomains: flag === "TRUE" || domain.startsWith("."),
      path,
      secure: secure === "TRUE",
      expires: Number(expires),
      name,
      value,
    });
  });
  if (cookies.length === 0) throw new CookiesFileError("it holds no cookie");
  return cookies;
}

/** Reads and checks a cookies file; throws CookiesFileError (or the file system's error) when unusable. */
export async function readCookiesFile(path: string): Promise<Cookie[]> {
  return parseNetscapeCookies(await readFile(path, "utf8"));
}

function domainMatches(cookie: Cookie, host: string): boolean {
  const domain = cookie.domain.replace(/^\./, "");
  if (host === domain) return true;
  return cookie.includeSubdomains && host.endsWith(`.${domain}`);
}

/** The Cookie header for a request to `url`, or null when no cookie of the file is for it. */
export function cookieHeader(
  cookies: readonly Cookie[],
  url: URL,
  nowSeconds = Date.now() / 1000,
): string | null {
  const host = url.hostname.toLowerCase();
  const sent = cookies.filter(
    (cookie) =>
      domainMatches(cookie, host) &&
      url.pathname.startsWith(cookie.path) &&
      (!cookie.secure || url.protocol === "https:") &&
      (cookie.expires === 0 || cookie.expires > nowSeconds),
  );
  return sent.length === 0 ? null : sent.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}
