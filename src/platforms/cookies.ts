// VIDROWS_YOUTUBE_COOKIES, handled one way for every part that asks a site: checked at start-up, read again at
// each attempt (a refreshed export is used without a restart), and a file that became unusable since is the
// same clear, retryable error whoever reads it.
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Cookie, parseNetscapeCookies } from "./netscape-cookies.js";
import { platformUnavailable } from "./platform-error.js";

/** Checks the file at start-up: readable and in the Netscape format; throws an Error naming the variable. */
export function checkCookiesSetting(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(
      `VIDROWS_YOUTUBE_COOKIES is "${path}", which cannot be read (${(error as NodeJS.ErrnoException).code}).`,
    );
  }
  try {
    parseNetscapeCookies(text);
  } catch (error) {
    throw new Error(
      `VIDROWS_YOUTUBE_COOKIES must be a cookies file in the Netscape format (as yt-dlp's --cookies reads); ` +
        `"${path}": ${(error as Error).message}.`,
    );
  }
}

/** The file's text and cookies as they are now; a PlatformError (retryable) when it cannot be used. */
async function readNow(path: string): Promise<{ text: string; cookies: Cookie[] }> {
  try {
    const text = await readFile(path, "utf8");
    return { text, cookies: parseNetscapeCookies(text) };
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw platformUnavailable(`The cookies file (VIDROWS_YOUTUBE_COOKIES) cannot be read: ${why}.`);
  }
}

/** The cookies to send with this attempt's own requests. */
export async function cookiesNow(path: string): Promise<Cookie[]> {
  return (await readNow(path)).cookies;
}

/**
 * A copy of the file in an attempt's folder, for yt-dlp's --cookies: yt-dlp writes its cookies back when it
 * ends, so it never gets the operator's file itself.
 */
export async function cookiesCopyIn(path: string, folder: string): Promise<string> {
  const { text } = await readNow(path);
  const copy = join(folder, "cookies.txt");
  await writeFile(copy, text, { mode: 0o600 });
  return copy;
}
