// Reading VIDROWS_CAPTIONS (`youtube`, `yt-dlp`, a chain such as `youtube,yt-dlp`, `dir:<path>` or a URL
// template with {video_id}) into a captions source.
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { CaptionSource } from "./caption-source.js";
import { DirectoryCaptionSource } from "./directory-source.js";
import { type InnerTubeClient, parseClientList } from "./innertube-client.js";
import { parseNetscapeCookies } from "./netscape-cookies.js";
import { FallbackCaptionSource } from "./fallback-source.js";
import { UrlTemplateCaptionSource, urlTemplateProblem } from "./url-template-source.js";
import { findYtDlp } from "./ytdlp-executable.js";
import { YtDlpCaptionSource } from "./ytdlp-source.js";
import { parseProxyList, ProxyPool } from "./proxy-pool.js";
import { RequestPacing } from "./request-pacing.js";
import { YouTubeCaptionSource } from "./youtube-source.js";

/** The sources that ask the platform itself, and so may be chained. */
export type PlatformSourceName = "youtube" | "yt-dlp";
const platformSources: readonly string[] = ["youtube", "yt-dlp"] satisfies PlatformSourceName[];

export type CaptionsSetting =
  | { readonly kind: "youtube" }
  | { readonly kind: "yt-dlp" }
  | { readonly kind: "chain"; readonly sources: readonly PlatformSourceName[] }
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "url"; readonly template: string };

/**
 * How the platform sources reach the platform, beyond the proxy: settings an operator changes when the
 * platform changes, read from the environment by config.ts (see docs/captions-and-transcription.md, "When captions fail").
 */
export interface PlatformAccessSettings {
  /** VIDROWS_YOUTUBE_CLIENTS: the InnerTube clients the youtube source asks, in order, with versions. */
  readonly youtubeClients?: string;
  /** VIDROWS_YOUTUBE_COOKIES: a Netscape cookies file for both platform sources. */
  readonly youtubeCookiesFile?: string;
  /** VIDROWS_YOUTUBE_MIN_INTERVAL_MS: the least time between requests to the platform from one process. */
  readonly youtubeMinIntervalMs?: number;
}

export interface CaptionSourceOptions extends PlatformAccessSettings {
  /** VIDROWS_YOUTUBE_PROXY: one or more http(s):// or socks5:// proxies, taken in turn, one per attempt. */
  readonly youtubeProxy?: string;
  /** The youtube source's player endpoint origin; tests point it at a local server. */
  readonly youtubeBaseUrl?: string;
  /** Per request; 15 s without it. */
  readonly timeoutMs?: number;
  /** VIDROWS_YTDLP_PATH: the yt-dlp executable; without it, `yt-dlp` on PATH. */
  readonly ytDlpPath?: string;
  /** VIDROWS_YTDLP_TIMEOUT_SECONDS: how long one yt-dlp run may take before it is killed. */
  readonly ytDlpTimeoutSeconds?: number;
}

function settingError(value: string, problem: string): Error {
  return new Error(
    `VIDROWS_CAPTIONS must be "youtube", "dir:<path>" or an http(s):// URL containing {video_id}, or ` +
      `"yt-dlp", alone or in a chain tried in order such as "youtube,yt-dlp"; "${value}": ${problem}.`,
  );
}

/** A comma-separated list of platform sources, each once. */
function parseChain(setting: string): CaptionsSetting {
  const names = setting.split(",").map((name) => name.trim());
  for (const name of names) {
    if (name === "") throw settingError(setting, "a source name is empty");
    if (!platformSources.includes(name)) {
      throw settingError(setting, `"${name}" is not a source that can be chained (youtube, yt-dlp)`);
    }
  }
  if (new Set(names).size !== names.length) throw settingError(setting, "a source is named twice");
  const sources = names as PlatformSourceName[];
  if (sources.length === 1) return { kind: sources[0] as PlatformSourceName };
  return { kind: "chain", sources };
}

/** The captions source a VIDROWS_CAPTIONS value names (unset or empty: youtube); throws for a bad value. */
export function parseCaptionsSetting(value: string | undefined): CaptionsSetting {
  const setting = (value ?? "").trim();
  if (setting === "" || setting === "youtube") return { kind: "youtube" };
  if (setting.startsWith("dir:")) {
    const path = setting.slice("dir:".length).trim();
    if (path === "") throw settingError(setting, "the folder path is missing");
    return { kind: "dir", path: resolve(path) };
  }
  if (/^https?:\/\//i.test(setting)) {
    const problem = urlTemplateProblem(setting);
    if (problem !== null) throw settingError(setting, problem);
    return { kind: "url", template: setting };
  }
  if (setting === "yt-dlp" || setting.includes(",")) return parseChain(setting);
  throw settingError(setting, "not one of those");
}

/** The proxies of a VIDROWS_YOUTUBE_PROXY value (none when unset); throws an Error naming the variable. */
export function parseYouTubeProxySetting(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  try {
    return parseProxyList(value);
  } catch (error) {
    throw new Error(
      `VIDROWS_YOUTUBE_PROXY must be one or more http://, https:// or socks5:// proxy URLs separated by ` +
        `commas; ${(error as Error).message}.`,
    );
  }
}

/**
 * Checks a VIDROWS_YOUTUBE_COOKIES file at start-up: it must be readable and in the Netscape format. Throws an
 * Error naming the variable. The sources read it again on each attempt, so a refreshed export is used.
 */
export function checkYouTubeCookiesSetting(path: string): void {
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

/** What the platform sources of one process share: the turn of the proxies and the pace of requests. */
interface SharedAccess {
  readonly proxyPool: ProxyPool;
  readonly pacing: RequestPacing;
}

function sharedAccess(options: CaptionSourceOptions): SharedAccess {
  return {
    proxyPool: new ProxyPool(parseYouTubeProxySetting(options.youtubeProxy)),
    pacing: new RequestPacing(options.youtubeMinIntervalMs ?? 0),
  };
}

/** The clients a VIDROWS_YOUTUBE_CLIENTS value names, in order; throws an Error naming the variable. */
export function parseYouTubeClientsSetting(value: string): InnerTubeClient[] {
  try {
    return parseClientList(value);
  } catch (error) {
    throw new Error(
      `VIDROWS_YOUTUBE_CLIENTS must be client names in the order to ask them, each as NAME or NAME@VERSION, ` +
        `such as "VISIONOS,ANDROID_VR@1.65.10"; "${value}": ${(error as Error).message}.`,
    );
  }
}

function platformSource(
  name: PlatformSourceName,
  options: CaptionSourceOptions,
  shared: SharedAccess,
): CaptionSource {
  const cookiesFile = options.youtubeCookiesFile || undefined;
  if (name === "youtube") {
    const clientList = options.youtubeClients?.trim();
    return new YouTubeCaptionSource({
      ...shared,
      cookiesFile,
      baseUrl: options.youtubeBaseUrl,
      timeoutMs: options.timeoutMs,
      clients: clientList ? parseYouTubeClientsSetting(clientList) : undefined,
    });
  }
  return new YtDlpCaptionSource({
    executable: findYtDlp(options.ytDlpPath),
    ...shared,
    cookiesFile,
    timeoutMs: options.ytDlpTimeoutSeconds === undefined ? undefined : options.ytDlpTimeoutSeconds * 1000,
  });
}

/**
 * The captions source for a VIDROWS_CAPTIONS value. Meant for a worker's start-up: a bad value, a captions
 * folder that does not exist, a bad VIDROWS_YOUTUBE_PROXY or a yt-dlp that cannot be found throws an Error
 * naming the variable to fix.
 */
export function createCaptionSource(
  setting: string | undefined,
  options: CaptionSourceOptions = {},
): CaptionSource {
  const parsed = parseCaptionsSetting(setting);
  switch (parsed.kind) {
    case "dir": {
      let isFolder = false;
      try {
        isFolder = statSync(parsed.path).isDirectory();
      } catch {
        // Reported just below.
      }
      if (!isFolder) throw settingError(`dir:${parsed.path}`, "there is no such folder");
      return new DirectoryCaptionSource(parsed.path);
    }
    case "url":
      return new UrlTemplateCaptionSource(parsed.template, { timeoutMs: options.timeoutMs });
    case "youtube":
    case "yt-dlp":
      return platformSource(parsed.kind, options, sharedAccess(options));
    case "chain": {
      // One pool and one pace for the whole chain: a source that follows a refused one takes the next proxy.
      const shared = sharedAccess(options);
      return new FallbackCaptionSource(
        parsed.sources.map((name) => ({ name, source: platformSource(name, options, shared) })),
      );
    }
  }
}
