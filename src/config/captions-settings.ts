// Where captions come from and how the platform is reached (VIDROWS_CAPTIONS, VIDROWS_YOUTUBE_*), each checked
// by its own parser (the captions source's, the platform access's), so that a bad value stops every process.
import { parseCaptionsSetting, parseYouTubeClientsSetting } from "../captions/create-caption-source.js";
import { type OtherPlatforms, otherPlatformSettings } from "../domain/submitted-videos.js";
import { checkCookiesSetting } from "../platforms/cookies.js";
import { parseProxySetting } from "../platforms/proxy-pool.js";
import { ConfigError, integerSetting } from "./setting-values.js";

/**
 * How the platform is reached, beyond the proxies: settings an operator changes when the platform changes
 * (see docs/captions-and-transcription.md, "When captions fail").
 */
export interface PlatformAccessSettings {
  /** VIDROWS_YOUTUBE_CLIENTS: the InnerTube clients the youtube source asks, in order, with versions. */
  readonly youtubeClients?: string;
  /** VIDROWS_YOUTUBE_COOKIES: a Netscape cookies file for every run against a video site. */
  readonly youtubeCookiesFile?: string;
  /** VIDROWS_YOUTUBE_MIN_INTERVAL_MS: the least time between requests to one site from one process. */
  readonly youtubeMinIntervalMs?: number;
}

/** VIDROWS_CAPTIONS, checked here so that a bad value stops every process, not only a worker. */
export function captionsSetting(env: NodeJS.ProcessEnv): string {
  const raw = env.VIDROWS_CAPTIONS || "youtube";
  try {
    parseCaptionsSetting(raw);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return raw;
}

/** The settings of how the youtube and yt-dlp sources reach the platform, each checked by its own parser. */
export function captionsAccess(env: NodeJS.ProcessEnv): PlatformAccessSettings {
  const clients = env.VIDROWS_YOUTUBE_CLIENTS?.trim() || undefined;
  const cookiesFile = env.VIDROWS_YOUTUBE_COOKIES?.trim() || undefined;
  try {
    if (clients !== undefined) parseYouTubeClientsSetting(clients);
    if (cookiesFile !== undefined) checkCookiesSetting(cookiesFile);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return Object.freeze({
    youtubeClients: clients,
    youtubeCookiesFile: cookiesFile,
    youtubeMinIntervalMs: integerSetting(env, "VIDROWS_YOUTUBE_MIN_INTERVAL_MS", 0, 0, 600_000),
  });
}

/** VIDROWS_YOUTUBE_PROXY: one or more proxies, parsed here once for every part of the process. */
export function youtubeProxies(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    return Object.freeze(parseProxySetting(env.VIDROWS_YOUTUBE_PROXY));
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** VIDROWS_OTHER_PLATFORMS: `any` unless set. */
export function otherPlatformsSetting(env: NodeJS.ProcessEnv): OtherPlatforms {
  const raw = env.VIDROWS_OTHER_PLATFORMS?.trim() || "any";
  const setting = otherPlatformSettings.find((name) => name === raw.toLowerCase());
  if (setting === undefined) {
    throw new ConfigError(
      `VIDROWS_OTHER_PLATFORMS must be "any" (any https:// page yt-dlp reads), "known" (the platforms docs/platforms.md lists) or "off" (YouTube only); got "${raw}".`,
    );
  }
  return setting;
}
