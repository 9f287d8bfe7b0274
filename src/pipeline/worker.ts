// The worker: claims videos, turns each into rows (captions, then the model), and settles it.
import { tmpdir } from "node:os";
import { sweepAbandonedWorkFolders } from "../platforms/work-folders.js";
import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { type CaptionSource } from "../captions/caption-source.js";
import { PlatformError } from "../platforms/platform-error.js";
import type { YtDlpPageSource } from "../captions/ytdlp-page-source.js";
import { ClaimLoop, Stopped } from "../concurrency/claim-loop.js";
import { logBackgroundFailure } from "../logger.js";
import { videosInFlight, videosSettled } from "../metrics.js";
import { LeaseHeartbeat } from "../concurrency/lease-heartbeat.js";
import type { WorkerSettings } from "../config.js";
import { ExtractionError, type Extractor } from "../extraction/extractor.js";
import type { PlanTable } from "../domain/plans.js";
import type { SpeechToText } from "../transcription/speech-to-text.js";
import { TranscriptionError } from "../transcription/transcriber.js";
import { BoundExceeded } from "../domain/media-bounds.js";
import type { Store } from "../store/database.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { cancelledJobsAmong, type ClaimedVideo, claimVideos, releaseVideos, renewLeases } from "./claims.js";
import { cancelledOutcome } from "./cancellation.js";
import { CancellationWatch } from "./cancellation-watch.js";
import type { PageIdentity, VideoOutcome } from "./video-outcomes.js";
import { SettlementQueue } from "./settlement-queue.js";
import { VideoBounds } from "./video-bounds.js";
import { KeptTranscripts, sourcedWordsOf } from "./kept-transcripts.js";
import { throughDatabaseOutages } from "./database-patience.js";
import { VideoTranscripts } from "./video-transcripts.js";
import { removeSettledUpload, type UploadFiles } from "./upload-words.js";

export interface WorkerOptions {
  readonly store: Store;
  readonly plans: PlanTable;
  readonly captions: CaptionSource;
  /** Transcribes a video's audio when it has no usable captions; undefined when not configured. */
  readonly speechToText?: SpeechToText;
  /** Reads the pages of other platforms than YouTube; undefined where yt-dlp is not found. */
  readonly pages?: YtDlpPageSource;
  readonly extractor: Extractor;
  readonly settings: WorkerSettings;
  readonly log: FastifyBaseLogger;
  /** How long to wait for new work when the queue is empty. */
  readonly pollIntervalMs?: number;
  /** Attempts at a retryable captions failure before the video fails with it. */
  readonly captionAttempts?: number;
  /** First back-off between captions attempts; doubles each time. */
  readonly retryBaseMs?: number;
  /** A video claimed this many times (its workers kept dying) fails instead of being tried again. */
  readonly maxClaims?: number;
  /** Called when a settlement settled its whole job (its webhook events are then waiting). */
  readonly onJobSettled?: () => void;
  /** The caption source's name in the metrics (`youtube`, `dir`, `url`...). */
  readonly captionSourceName?: string;
  /** Time between looks for cancelled jobs while videos are in hand (cancellation-watch.ts). */
  readonly cancellationLookMs?: number;
  /** The workspaces' kept transcripts (kept-transcripts.ts); none kept if left out. */
  readonly keptTranscripts?: KeptTranscripts;
  /** Time between sweeps of the kept transcripts whose time is past (a minute if left out). */
  readonly transcriptSweepMs?: number;
  /** The uploads jobs took: read as videos, removed as each settles (upload-words.ts). */
  readonly uploads?: UploadFiles;
}

export class Worker {
  readonly id = `wrk_${randomBytes(8).toString("hex")}`;
  private readonly loop: ClaimLoop<ClaimedVideo>;
  private readonly settlements: SettlementQueue;
  private readonly heartbeat: LeaseHeartbeat;
  /** Abandons the videos in hand whose job is cancelled, within about a second. */
  private readonly cancellations: CancellationWatch;
  private readonly transcripts: VideoTranscripts;
  private readonly bounds: VideoBounds;
  private readonly kept: KeptTranscripts;

  constructor(private readonly options: WorkerOptions) {
    this.bounds = new VideoBounds({ ...options, ...options.settings });
    this.transcripts = new VideoTranscripts({ ...options, bounds: this.bounds });
    this.kept = options.keptTranscripts ?? new KeptTranscripts(options.store, 0);
    this.settlements = new SettlementQueue(options.store, options.plans, this.id, this.leaseMs);
    const { videosInFlight: capacity, videosPerWorkspace: cap } = options.settings;
    // A claim costs as much for one video as for many: while most places are taken, claim a quarter at once.
    const claimAtLeast = Math.max(1, Math.floor(capacity / 4));
    this.loop = new ClaimLoop<ClaimedVideo>({
      capacity,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      claim: async (room) =>
        room < claimAtLeast ? [] : claimVideos(options.store, this.id, room, this.leaseMs, Date.now(), cap),
      keyOf: (video) => video.rowId,
      handle: (video, signal) => this.processVideo(video, signal),
      release: async (videoIds) => {
        // No renewal may extend a lease after it is handed back.
        await this.heartbeat.stop();
        await releaseVideos(options.store, this.id, videoIds);
      },
      onError: (error, context) => logBackgroundFailure(options.log, error, { context }, "video work failed"),
    });
    this.heartbeat = new LeaseHeartbeat({
      // Well before the lease runs out, so a slow renewal still comes in time.
      intervalMs: Math.max(250, this.leaseMs / 3),
      holdings: () => this.loop.holdings,
      renew: (videoIds) => renewLeases(options.store, this.id, videoIds, this.leaseMs),
      onLost: (videoId, claim) => this.loop.abandon(videoId, claim, new Stopped("lease lost")),
      onError: (error) => logBackgroundFailure(options.log, error, {}, "lease renewal failed"),
    });
    this.cancellations = new CancellationWatch({
      intervalMs: options.cancellationLookMs ?? 1000,
      cancelledAmong: (jobIds) => cancelledJobsAmong(options.store, jobIds),
      onError: (error) => logBackgroundFailure(options.log, error, {}, "looking for cancelled jobs failed"),
    });
  }

  private get leaseMs() {
    return this.options.settings.videoLeaseSeconds * 1000;
  }

  start(): void {
    // The folders (and programs still running in them) of processes killed mid-run: in the temporary
    // folder, and where speech-to-text keeps audio. This process's own folders are never touched.
    const roots = new Set([tmpdir(), this.options.speechToText?.tempRoot ?? tmpdir()]);
    Promise.all([...roots].map((root) => sweepAbandonedWorkFolders(root)))
      .then((counts) => {
        const removed = counts.reduce((sum, count) => sum + count, 0);
        if (removed > 0) this.options.log.info({ removed }, "removed work folders left by stopped processes");
      })
      .catch((error: unknown) =>
        logBackgroundFailure(this.options.log, error, {}, "sweeping leftover work folders failed"),
      );
    this.loop.start();
    this.heartbeat.start();
    this.kept.startSweeping(this.options.transcriptSweepMs ?? 60_000, (error) =>
      logBackgroundFailure(this.options.log, error, {}, "deleting expired transcripts failed"),
    );
  }

  /** New work may be waiting (a submission on this process): look now instead of at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /** This process cancelled the job: abandon its videos in hand now rather than at the next look. */
  jobCancelled(jobId: string): void {
    this.cancellations.jobCancelled(jobId);
  }

  /**
   * Stops claiming, gives the videos in hand the shutdown grace to finish, then abandons the rest and
   * releases their leases so that another worker takes them over at once.
   */
  async stop(graceMs = this.options.settings.shutdownGraceSeconds * 1000): Promise<void> {
    this.kept.stopSweeping();
    await this.loop.stop(graceMs);
    await this.heartbeat.stop();
    await this.cancellations.stop();
    // The worker is the captions source's only user, so it closes it (a proxy's open connections).
    await this.options.captions.close?.();
  }

  /**
   * `signal` aborts at stop, or when the heartbeat finds the lease lost (another worker took the video).
   * A cancellation of the job, seen at the claim or by the cancellation watch, abandons the work instead
   * (its model calls aborted) and settles the video as `cancelled`.
   */
  private async processVideo(video: ClaimedVideo, signal: AbortSignal): Promise<void> {
    const watched = this.cancellations.watch(video.jobId);
    // Who a page of another platform is, once read: the video settles under that id, whatever its outcome.
    let page: PageIdentity | undefined;
    const named = (identity: PageIdentity) => {
      page = identity;
    };
    videosInFlight.inc();
    try {
      const cancelled = watched.signal;
      const outcome = video.cancelled
        ? cancelledOutcome
        : await this.outcomeUnlessCancelled(video, AbortSignal.any([signal, cancelled]), cancelled, named);
      if (signal.aborted) throw signal.reason;
      const settled = cancelled.aborted ? cancelledOutcome : outcome;
      await this.settle(video, page === undefined ? settled : { ...settled, page });
    } finally {
      videosInFlight.dec();
      watched.end();
    }
  }

  private async outcomeUnlessCancelled(
    video: ClaimedVideo,
    signal: AbortSignal,
    cancelled: AbortSignal,
    named: (identity: PageIdentity) => void,
  ): Promise<VideoOutcome> {
    try {
      return await throughDatabaseOutages(() => this.readOutcome(video, signal, named), {
        patienceMs: this.leaseMs,
        signal,
        onOutage: (error) =>
          logBackgroundFailure(this.options.log, error, {}, "a video waits for the database"),
      });
    } catch (error) {
      if (cancelled.aborted) return cancelledOutcome;
      throw error;
    }
  }

  private async readOutcome(
    video: ClaimedVideo,
    signal: AbortSignal,
    named: (identity: PageIdentity) => void,
  ): Promise<VideoOutcome> {
    const maxClaims = this.options.maxClaims ?? 5;
    if (video.claims > maxClaims) {
      return {
        kind: "failed",
        code: "extraction_failed",
        message: `Processing this video was interrupted ${video.claims - 1} times; giving up.`,
        retryable: true,
      };
    }
    try {
      const { transcript, transcribed, source } = await sourcedWordsOf(
        this.kept,
        video,
        (readNamed) => this.transcripts.wordsOf(video, signal, readNamed),
        named,
        (error) => logBackgroundFailure(this.options.log, error, {}, "keeping a transcript failed"),
      );
      if (transcript.cues.length === 0) {
        return {
          kind: "failed",
          code: "no_captions",
          message: transcribed ? "No speech was heard in the audio." : "The caption track is empty.",
          retryable: false,
        };
      }
      const durationSeconds = await this.bounds.chargedSeconds(video.workspaceId, transcript, transcribed);
      const extraction = await this.options.extractor.extractRows(transcript, video.schema, { signal });
      // What the model itself counted, for a video's cost (`npm run bench` measures it per token).
      this.options.log.info(
        {
          video: video.rowId,
          job: video.jobId,
          chunks: extraction.chunkCount,
          rows: extraction.rows.length,
          model_prompt_tokens: extraction.modelUsage.promptTokens,
          model_completion_tokens: extraction.modelUsage.completionTokens,
        },
        "video extracted",
      );
      if (extraction.nulledValues > 0) {
        // Said here, not in the video's `usage`, whose keys the interface fixes.
        this.options.log.warn(
          { video: video.rowId, job: video.jobId, nulledValues: extraction.nulledValues },
          "the model gave values that did not fit their typed columns; they became null",
        );
      }
      return {
        kind: "done",
        rows: extraction.rows,
        sources: extraction.sources,
        durationSeconds,
        chunkCount: extraction.chunkCount,
        transcribed,
        transcriptSource: source,
      };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof PlatformError || error instanceof BoundExceeded) {
        return { kind: "failed", code: error.code, message: error.message, retryable: error.retryable };
      }
      if (error instanceof TranscriptionError) {
        return { kind: "failed", code: error.code, message: error.message, retryable: true };
      }
      if (error instanceof ExtractionError) {
        return { kind: "failed", code: error.code, message: error.message, retryable: true };
      }
      if (isDatabaseUnavailable(error)) throw error; // the service's failure: waited out, not the video's
      this.options.log.error({ err: error, video: video.rowId }, "unexpected error while processing a video");
      return {
        kind: "failed",
        code: "extraction_failed",
        message: "An unexpected error stopped the extraction; it has been logged.",
        retryable: true,
      };
    }
  }

  private async settle(video: ClaimedVideo, outcome: VideoOutcome): Promise<void> {
    const result = await this.settlements.settle(video, outcome);
    if (result.kind === "lost") {
      this.options.log.warn({ video: video.rowId }, "lease lost before settling");
      return;
    }
    videosSettled.inc({ outcome: outcome.kind, code: outcome.kind === "done" ? "ok" : outcome.code });
    if (result.jobSettled) this.options.onJobSettled?.();
    await removeSettledUpload(this.options.uploads, video, this.options.log);
  }
}
