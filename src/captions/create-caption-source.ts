// Reading VIDROWS_CAPTIONS (`youtube`, `yt-dlp`, a chain such as `youtube,yt-dlp`, `dir:<path>` or a URL
// template with {video_id}) into a captions source.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { findProgram } from "../platforms/executables.js";
import { PlatformAccess } from "../platforms/platform-access.js";
import type { CaptionSource } from "./caption-source.js";
import { DirectoryCaptionSource } from "./directory-source.js";
import { type InnerTubeClient, parseClientList } from "./innertube-client.js";
import { FallbackCaptionSource } from "./fallback-source.js";
import { UrlTemplateCaptionSource, urlTemplateProblem } from "./url-template-source.js";
import { YtDlpCaptionSource } from "./ytdlp-source.js";
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

export interface CaptionSourceOptions {
  /**
   * How the process reaches video sites (VIDROWS_YOUTUBE_PROXY, _COOKIES, _MIN_INTERVAL_MS), shared with
   * audio downloads and listings; without it, directly, unpaced and without cookies.
   */
  readonly access?: PlatformAccess;
  /** VIDROWS_YOUTUBE_CLIENTS: the InnerTube clients the youtube source asks, in order, with versions. */
  readonly youtubeClients?: string;
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
  access: PlatformAccess,
): CaptionSource {
  if (name === "youtube") {
    const clientList = options.youtubeClients?.trim();
    return new YouTubeCaptionSource({
      access,
      baseUrl: options.youtubeBaseUrl,
      timeoutMs: options.timeoutMs,
      clients: clientList ? parseYouTubeClientsSetting(clientList) : undefined,
    });
  }
  return new YtDlpCaptionSource({
    executable: findProgram("yt-dlp", options.ytDlpPath, "The captions source yt-dlp (VIDROWS_CAPTIONS)"),
    access,
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
      return platformSource(parsed.kind, options, options.access ?? new PlatformAccess());
    case "chain": {
      // One pool and one pace for the whole chain: a source that follows a refused one takes the next proxy.
      const access = options.access ?? new PlatformAccess();
      return new FallbackCaptionSource(
        parsed.sources.map((name) => ({ name, source: platformSource(name, options, access) })),
      );
    }
  }
}
