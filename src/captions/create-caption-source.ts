// Reading VIDROWS_CAPTIONS (`youtube`, `dir:<path>` or a URL template with {video_id}) into a captions source.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { CaptionSource } from "./caption-source.js";
import { DirectoryCaptionSource } from "./directory-source.js";
import { UrlTemplateCaptionSource, urlTemplateProblem } from "./url-template-source.js";
import { proxyProblem, YouTubeCaptionSource } from "./youtube-source.js";

export type CaptionsSetting =
  | { readonly kind: "youtube" }
  | { readonly kind: "dir"; readonly path: string }
  | { readonly kind: "url"; readonly template: string };

export interface CaptionSourceOptions {
  /** VIDROWS_YOUTUBE_PROXY: an http(s):// proxy for the youtube source. */
  readonly youtubeProxy?: string;
  /** The youtube source's player endpoint origin; tests point it at a local server. */
  readonly youtubeBaseUrl?: string;
  /** Per request; 15 s without it. */
  readonly timeoutMs?: number;
}

function settingError(value: string, problem: string): Error {
  return new Error(
    `VIDROWS_CAPTIONS must be "youtube", "dir:<path>" or an http(s):// URL containing {video_id}; ` +
      `"${value}": ${problem}.`,
  );
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
  throw settingError(setting, "not one of those");
}

/**
 * The captions source for a VIDROWS_CAPTIONS value. Meant for start-up: a bad value, a captions folder that
 * does not exist or a bad VIDROWS_YOUTUBE_PROXY throws an Error naming the variable.
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
    case "youtube": {
      const proxy = options.youtubeProxy?.trim() || undefined;
      const problem = proxy === undefined ? null : proxyProblem(proxy);
      if (problem !== null) {
        throw new Error(
          `VIDROWS_YOUTUBE_PROXY must be an http:// or https:// proxy URL; "${proxy}": ${problem}.`,
        );
      }
      return new YouTubeCaptionSource({
        proxy,
        baseUrl: options.youtubeBaseUrl,
        timeoutMs: options.timeoutMs,
      });
    }
  }
}
