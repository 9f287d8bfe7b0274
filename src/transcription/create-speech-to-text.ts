// Building speech-to-text from the VIDROWS_TRANSCRIBE_* settings when a worker starts: the service, yt-dlp
// for the audio (through the process's platform access) and ffmpeg to cut it, each found or named as missing.
import type { TranscriptionSettings } from "../config/language-model-settings.js";
import { findProgram } from "../platforms/executables.js";
import { PlatformAccess } from "../platforms/platform-access.js";
import { FfmpegAudioCutter } from "./audio-pieces.js";
import { YtDlpAudioSource } from "./audio-download.js";
import { OpenAiTranscriber } from "./openai-transcriber.js";
import { SpeechToText, type SpeechToTextOptions } from "./speech-to-text.js";

/** What config.ts reads from VIDROWS_TRANSCRIBE_*, and where yt-dlp is. */
export type SpeechToTextSettings = TranscriptionSettings & { readonly ytDlpPath?: string };

const neededBy = "Speech-to-text (VIDROWS_TRANSCRIBE_*)";

/** Throws an Error naming the program and its variable when yt-dlp or ffmpeg cannot be found. */
export function createSpeechToText(
  settings: SpeechToTextSettings,
  overrides: Partial<
    Pick<SpeechToTextOptions, "tempRoot" | "attempts" | "retryBaseMs" | "maxRetryAfterMs">
  > = {},
  access: PlatformAccess = new PlatformAccess(),
): SpeechToText {
  const ytDlp = findProgram("yt-dlp", settings.ytDlpPath, neededBy);
  const ffmpeg = findProgram("ffmpeg", settings.ffmpegPath, neededBy);
  return new SpeechToText({
    audio: new YtDlpAudioSource({
      executable: ytDlp,
      access,
      timeoutMs: (settings.downloadTimeoutSeconds ?? 900) * 1000,
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
