// Captions from a URL template such as `https://captions.example/{video_id}.vtt`: 404 means no captions.
import { CaptionFormatError } from "./caption-format-error.js";
import { cuesDurationSeconds, formatFromContentType, parseCaptions, sniffFormat } from "./caption-formats.js";
import { defaultCaptionTimeoutMs, HttpFailure, httpRequest } from "./caption-http.js";
import { type CaptionSource, type FetchTranscriptOptions } from "./caption-source.js";
import { PlatformError } from "../platforms/platform-error.js";
import { type Transcript } from "../domain/transcript.js";
import { assertVideoId } from "./video-id.js";

export const videoIdPlaceholder = "{video_id}";

/** Why a template cannot be used, or null when it can. */
export function urlTemplateProblem(template: string): string | null {
  if (!template.includes(videoIdPlaceholder)) return `it must contain ${videoIdPlaceholder}`;
  let url: URL;
  try {
    url = new URL(template.replaceAll(videoIdPlaceholder, "dQw4w9WgXcQ"));
  } catch {
    return "it is not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "it must be an http:// or https:// URL";
  return null;
}

/** An HTML page, by its content type or by its first characters. */
function isWebPage(contentType: string | null, text: string): boolean {
  const essence = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (essence === "text/html" || essence === "application/xhtml+xml") return true;
  return /^(?:\uFEFF)?\s*<(?:!doctype html|html|head|body)\b/i.test(text);
}

export interface UrlTemplateSourceOptions {
  readonly timeoutMs?: number;
}

export class UrlTemplateCaptionSource implements CaptionSource {
  private readonly timeoutMs: number;

  constructor(
    readonly template: string,
    options: UrlTemplateSourceOptions = {},
  ) {
    const problem = urlTemplateProblem(template);
    if (problem !== null) throw new Error(`Captions URL template "${template}" is not usable: ${problem}.`);
    this.timeoutMs = options.timeoutMs ?? defaultCaptionTimeoutMs;
  }

  async fetchTranscript(videoId: string, options: FetchTranscriptOptions = {}): Promise<Transcript> {
    assertVideoId(videoId);
    const url = this.template.replaceAll(videoIdPlaceholder, videoId);
    let answer: Awaited<ReturnType<typeof httpRequest>>;
    try {
      answer = await httpRequest({
        url,
        timeoutMs: this.timeoutMs,
        signal: options.signal,
        headers: { accept: "text/vtt, application/x-subrip, application/json;q=0.9, */*;q=0.5" },
      });
    } catch (error) {
      if (error instanceof HttpFailure) {
        throw new PlatformError(
          "captions_unavailable",
          `The captions server for ${videoId}: ${error.message}.`,
        );
      }
      throw error;
    }
    if (answer.status === 404)
      throw new PlatformError("no_captions", `The captions server has none for ${videoId}.`);
    if (answer.status < 200 || answer.status > 299) {
      throw new PlatformError(
        "captions_unavailable",
        `The captions server answered HTTP ${answer.status} for ${videoId}.`,
      );
    }
    if (isWebPage(answer.contentType, answer.text)) {
      // A server (or a proxy before it) answering 200 with an error or login page: not a video without captions.
      throw new PlatformError(
        "captions_unavailable",
        `The captions server answered a web page, not captions, for ${videoId}.`,
      );
    }
    const format = formatFromContentType(answer.contentType) ?? sniffFormat(answer.text);
    let cues: ReturnType<typeof parseCaptions>;
    try {
      cues = parseCaptions(answer.text, format);
    } catch (error) {
      if (!(error instanceof CaptionFormatError)) throw error;
      // A server that answers 200 with something else (an error page) may be mid-deploy: worth a retry.
      throw new PlatformError("captions_unavailable", `The captions for ${videoId}: ${error.message}`);
    }
    if (cues.length === 0) throw new PlatformError("no_captions", `The captions for ${videoId} are empty.`);
    return { cues, durationSeconds: cuesDurationSeconds(cues) };
  }
}
