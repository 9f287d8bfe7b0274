// Where captions come from and how the platform is reached (VIDROWS_CAPTIONS, VIDROWS_YOUTUBE_*),
// each checked by the captions source's own parser, so that a bad value stops every process.
import {
  checkYouTubeCookiesSetting,
  parseCaptionsSetting,
  parseYouTubeClientsSetting,
  parseYouTubeProxySetting,
  type PlatformAccessSettings,
} from "../captions/create-caption-source.js";
import { type OtherPlatforms, otherPlatformSettings } from "../domain/submitted-videos.js";
import { ConfigError, integerSetting } from "./setting-values.js";

export type { PlatformAccessSettings };

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
    if (cookiesFile !== undefined) checkYouTubeCookiesSetting(cookiesFile);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return Object.freeze({
    youtubeClients: clients,
    youtubeCookiesFile: cookiesFile,
    youtubeMinIntervalMs: integerSetting(env, "VIDROWS_YOUTUBE_MIN_INTERVAL_MS", 0, 0, 600_000),
  });
}

/** VIDROWS_YOUTUBE_PROXY: one or more proxies, checked by the captions source's own parser. */
export function youtubeProxy(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.VIDROWS_YOUTUBE_PROXY?.trim() || undefined;
  try {
    parseYouTubeProxySetting(raw);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return raw;
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
