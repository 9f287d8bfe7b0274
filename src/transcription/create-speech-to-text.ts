// Building speech-to-text from the VIDROWS_TRANSCRIBE_* settings when a worker starts: the service, yt-dlp
// for the audio (through VIDROWS_YOUTUBE_PROXY's proxies) and ffmpeg to cut it, each found or named as missing.
import { parseYouTubeProxySetting } from "../captions/create-caption-source.js";
import { ProxyPool } from "../captions/proxy-pool.js";
import { RequestPacing } from "../captions/request-pacing.js";
import { FfmpegAudioCutter } from "./audio-pieces.js";
import { YtDlpAudioSource } from "./audio-download.js";
import { findProgram } from "./executables.js";
import { OpenAiTranscriber } from "./openai-transcriber.js";
import { SpeechToText, type SpeechToTextOptions } from "./speech-to-text.js";

/** What config.ts reads from VIDROWS_TRANSCRIBE_* (and the settings it shares with the captions sources). */
export interface SpeechToTextSettings {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly maxUploadBytes: number;
  readonly requestTimeoutSeconds: number;
  readonly ffmpegPath?: string;
  readonly ytDlpPath?: string;
  readonly youtubeProxy?: string;
  readonly youtubeCookiesFile?: string;
  readonly youtubeMinIntervalMs?: number;
  readonly maxAnswerBytes?: number;
  readonly maxRetryAfterSeconds?: number;
}

/** Throws an Error naming the program and its variable when yt-dlp or ffmpeg cannot be found. */
export function createSpeechToText(
  settings: SpeechToTextSettings,
  overrides: Partial<
    Pick<SpeechToTextOptions, "tempRoot" | "attempts" | "retryBaseMs" | "maxRetryAfterMs">
  > = {},
): SpeechToText {
  const ytDlp = findProgram("yt-dlp", "VIDROWS_YTDLP_PATH", settings.ytDlpPath);
  const ffmpeg = findProgram("ffmpeg", "VIDROWS_FFMPEG_PATH", settings.ffmpegPath);
  return new SpeechToText({
    audio: new YtDlpAudioSource({
      executable: ytDlp,
      proxyPool: new ProxyPool(parseYouTubeProxySetting(settings.youtubeProxy)),
      pacing: new RequestPacing(settings.youtubeMinIntervalMs ?? 0),
      cookiesFile: settings.youtubeCookiesFile,
    }),
    transcriber: new OpenAiTranscriber({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      model: settings.model,
      requestTimeoutMs: settings.requestTimeoutSeconds * 1000,
      maxAnswerBytes: settings.maxAnswerBytes,
    }),
    cutter: new FfmpegAudioCutter(ffmpeg),
    maxUploadBytes: settings.maxUploadBytes,
    maxRetryAfterMs: (settings.maxRetryAfterSeconds ?? 120) * 1000,
    ...overrides,
  });
}
