// The background work of the composition root, built from its config: the pipeline worker and the webhook dispatcher.
import type { UploadFiles } from "../pipeline/upload-words.js";
import type { FastifyBaseLogger } from "fastify";
import { createCaptionSource, parseCaptionsSetting } from "../captions/create-caption-source.js";
import { defaultYtDlpTimeoutSeconds } from "../captions/ytdlp-source.js";
import { YtDlpPageSource } from "../captions/ytdlp-page-source.js";
import { Semaphore } from "../concurrency/semaphore.js";
import type { Config } from "../config.js";
import { createExtractor, type ExtractorConfig } from "../extraction/openai-extractor.js";
import { KeptTranscripts } from "../pipeline/kept-transcripts.js";
import { Worker, type WorkerOptions } from "../pipeline/worker.js";
import type { PlatformAccess } from "../platforms/platform-access.js";
import type { StorageEraser } from "../store/storage-eraser.js";
import { otherPlatformsRead } from "./other-platforms.js";
import { createSpeechToText } from "../transcription/create-speech-to-text.js";
import type { SpeechToText, SpeechToTextOptions } from "../transcription/speech-to-text.js";
import type { Store } from "../store/database.js";
import { type DispatcherOptions, WebhookDispatcher } from "../webhooks/dispatcher.js";
import { WebhookSender } from "../webhooks/webhook-sender.js";

export interface BackgroundWorkOptions {
  /** Timings of the worker's polling and retries (tests shorten them), and its kept transcripts (tests fail them). */
  readonly worker?: Partial<
    Pick<
      WorkerOptions,
      | "pollIntervalMs"
      | "captionAttempts"
      | "retryBaseMs"
      | "maxClaims"
      | "transcriptSweepMs"
      | "keptTranscripts"
    >
  >;
  /** Retry and chunking settings of the model client (tests shorten them). */
  readonly extraction?: Partial<Pick<ExtractorConfig, "retry" | "chunking" | "requestTimeoutMs">>;
  /** Timings of the webhook dispatcher (tests shorten them). */
  readonly dispatcher?: Partial<Pick<DispatcherOptions, "pollIntervalMs" | "concurrency">>;
  /** The youtube source's origin (tests point it at a local server). */
  readonly youtubeBaseUrl?: string;
  /** Where speech-to-text keeps audio, and its retries (tests set them). */
  readonly transcription?: Partial<Pick<SpeechToTextOptions, "tempRoot" | "attempts" | "retryBaseMs">>;
}

/** The caption source as the metrics name it: its kind, or the sources of a chain (`youtube+yt-dlp`). */
function captionSourceName(setting: string): string {
  const parsed = parseCaptionsSetting(setting);
  return parsed.kind === "chain" ? parsed.sources.join("+") : parsed.kind;
}

/** The pipeline worker, or undefined (with a warning) when no model is configured. */
export function buildWorker(
  config: Config,
  store: Store,
  log: FastifyBaseLogger,
  options: BackgroundWorkOptions,
  access: PlatformAccess,
  onJobSettled: () => void,
  eraser?: StorageEraser,
  uploads?: UploadFiles,
): Worker | undefined {
  if (config.model === null) {
    log.warn("no language model is configured (VIDROWS_LLM_API_KEY or VIDROWS_LLM_BASE_URL): no worker runs");
    return undefined;
  }
  const captions = createCaptionSource(config.captions, {
    access,
    youtubeClients: config.captionsAccess?.youtubeClients,
    youtubeBaseUrl: options.youtubeBaseUrl,
    ytDlpPath: config.ytDlpPath,
    ytDlpTimeoutSeconds: config.ytDlpTimeoutSeconds,
  });
  const extractor = createExtractor({
    baseUrl: config.model.baseUrl,
    apiKey: config.model.apiKey,
    model: config.model.model,
    modelRequests: new Semaphore(config.worker.modelConcurrency),
    ...options.extraction,
    chunking: {
      ...(config.worker.chunkTokens === undefined ? {} : { chunkTokens: config.worker.chunkTokens }),
      ...options.extraction?.chunking,
    },
  });
  return new Worker({
    store,
    plans: config.plans,
    captions,
    speechToText: buildSpeechToText(config, options, access),
    pages: buildPageSource(config, access),
    extractor,
    settings: config.worker,
    log: log.child({ component: "worker" }),
    onJobSettled,
    uploads,
    captionSourceName: captionSourceName(config.captions),
    keptTranscripts: new KeptTranscripts(
      store,
      (config.worker.transcriptRetentionHours ?? 0) * 3_600_000,
      (partitions) => eraser?.afterDeletion(partitions),
    ),
    ...options.worker,
  });
}

/**
 * The reader of other platforms' pages, where yt-dlp is found and VIDROWS_OTHER_PLATFORMS is not off, through
 * the process's platform access (each page's site at its own pace).
 */
function buildPageSource(config: Config, access: PlatformAccess): YtDlpPageSource | undefined {
  const { ytDlp } = otherPlatformsRead(config);
  if (ytDlp === null) return undefined;
  return new YtDlpPageSource({
    executable: ytDlp,
    timeoutMs: (config.ytDlpTimeoutSeconds ?? defaultYtDlpTimeoutSeconds) * 1000,
    access,
  });
}

/**
 * Speech-to-text when VIDROWS_TRANSCRIBE_* is set, else undefined; throws, naming yt-dlp or ffmpeg and its
 * variable, when one is missing.
 */
function buildSpeechToText(
  config: Config,
  options: BackgroundWorkOptions,
  access: PlatformAccess,
): SpeechToText | undefined {
  if (!config.transcription) return undefined;
  return createSpeechToText(
    { ...config.transcription, ytDlpPath: config.ytDlpPath },
    options.transcription,
    access,
  );
}

/** Deliveries need no model, so every process that runs background work dispatches. */
export function buildDispatcher(
  config: Config,
  store: Store,
  log: FastifyBaseLogger,
  options: BackgroundWorkOptions,
): WebhookDispatcher {
  return new WebhookDispatcher({
    store,
    sender: new WebhookSender({ allowPrivate: config.webhooks.allowPrivate }),
    retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
    leaseMs: config.webhooks.leaseSeconds * 1000,
    log: log.child({ component: "webhooks" }),
    ...options.dispatcher,
  });
}
