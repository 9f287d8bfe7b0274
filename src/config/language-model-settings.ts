// The language model and speech-to-text endpoints (VIDROWS_LLM_*, VIDROWS_TRANSCRIBE_*, VIDROWS_FFMPEG_PATH).
import { isModelConfigured, openAiBaseUrl, parseExtractionSettings } from "../model-settings.js";
import { ConfigError, integerSetting } from "./setting-values.js";

/** An OpenAI-compatible chat-completions endpoint. */
export interface ModelSettings {
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly model: string;
}

/** An OpenAI-compatible `/audio/transcriptions` endpoint, for videos without usable captions. */
export interface TranscriptionSettings {
  /** VIDROWS_TRANSCRIBE_BASE_URL: the API root; OpenAI's unless set. */
  readonly baseUrl: string;
  /** VIDROWS_TRANSCRIBE_API_KEY, else the language model's key. */
  readonly apiKey: string | undefined;
  /** VIDROWS_TRANSCRIBE_MODEL: `whisper-1` unless set. */
  readonly model: string;
  /** VIDROWS_TRANSCRIBE_MAX_BYTES: the endpoint's upload limit (OpenAI's 25 MB); larger audio is cut by ffmpeg. */
  readonly maxUploadBytes: number;
  /** VIDROWS_TRANSCRIBE_TIMEOUT_SECONDS: how long one upload may wait for its answer (300). */
  readonly requestTimeoutSeconds: number;
  /** VIDROWS_FFMPEG_PATH: the ffmpeg executable; unset, `ffmpeg` on PATH (looked up when a worker starts). */
  readonly ffmpegPath?: string;
  /** VIDROWS_TRANSCRIBE_MAX_ANSWER_BYTES: the largest answer read; past it the video fails (16 MB). */
  readonly maxAnswerBytes?: number;
  /** VIDROWS_TRANSCRIBE_MAX_RETRY_AFTER_SECONDS: the longest `Retry-After` waited for (120). */
  readonly maxRetryAfterSeconds?: number;
  /**
   * VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS: how long a video's audio download may run (900); one still
   * receiving at the end is a stream without end and fails for good.
   */
  readonly downloadTimeoutSeconds?: number;
}

/** The model settings, or null when none is configured (a key or a base URL makes one). */
export function modelSettings(env: NodeJS.ProcessEnv): ModelSettings | null {
  let settings: ModelSettings;
  try {
    settings = parseExtractionSettings(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return isModelConfigured(settings) ? Object.freeze(settings) : null;
}

/**
 * Speech-to-text is configured when VIDROWS_TRANSCRIBE_BASE_URL, VIDROWS_TRANSCRIBE_MODEL or
 * VIDROWS_TRANSCRIBE_API_KEY is set; the others then take their defaults.
 */
export function transcriptionSettings(
  env: NodeJS.ProcessEnv,
  model: ModelSettings | null,
): TranscriptionSettings | null {
  const read = (name: string) => env[name]?.trim() || undefined;
  const baseUrl = read("VIDROWS_TRANSCRIBE_BASE_URL");
  const modelName = read("VIDROWS_TRANSCRIBE_MODEL");
  const apiKey = read("VIDROWS_TRANSCRIBE_API_KEY");
  if (baseUrl === undefined && modelName === undefined && apiKey === undefined) return null;
  if (baseUrl !== undefined && !/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? "")) {
    throw new ConfigError(
      `VIDROWS_TRANSCRIBE_BASE_URL must be an http:// or https:// URL of an OpenAI-compatible API (such as http://127.0.0.1:8000/v1); got "${baseUrl}".`,
    );
  }
  return Object.freeze({
    baseUrl: baseUrl ?? openAiBaseUrl,
    apiKey: apiKey ?? model?.apiKey,
    model: modelName ?? "whisper-1",
    maxUploadBytes: integerSetting(env, "VIDROWS_TRANSCRIBE_MAX_BYTES", 25_000_000, 10_000, 2_000_000_000),
    requestTimeoutSeconds: integerSetting(env, "VIDROWS_TRANSCRIBE_TIMEOUT_SECONDS", 300, 1, 3600),
    ffmpegPath: read("VIDROWS_FFMPEG_PATH"),
    maxAnswerBytes: integerSetting(
      env,
      "VIDROWS_TRANSCRIBE_MAX_ANSWER_BYTES",
      16_000_000,
      10_000,
      1_000_000_000,
    ),
    maxRetryAfterSeconds: integerSetting(env, "VIDROWS_TRANSCRIBE_MAX_RETRY_AFTER_SECONDS", 120, 0, 86_400),
    downloadTimeoutSeconds: integerSetting(
      env,
      "VIDROWS_TRANSCRIBE_DOWNLOAD_TIMEOUT_SECONDS",
      900,
      1,
      86_400,
    ),
  });
}
