// An uploaded file's words (contract section 13, "Uploads"): its embedded subtitle stream as captions, else its
// audio through speech-to-text as the job's `transcribe` says, as for any video; its length is the one
// measured at the upload, so the charge is never more than the file holds.
import type { FastifyBaseLogger } from "fastify";
import { parseCaptions } from "../captions/caption-formats.js";
import type { Transcript } from "../domain/transcript.js";
import { transcribesAudio } from "../domain/transcribe-mode.js";
import { uploadIdOf } from "../domain/upload-videos.js";
import { logBackgroundFailure } from "../logger.js";
import { PlatformError } from "../platforms/platform-error.js";
import type { Store } from "../store/database.js";
import type { SpeechToText } from "../transcription/speech-to-text.js";
import { TranscriptionError } from "../transcription/transcriber.js";
import type { ClaimedVideo } from "./claims.js";
import type { VideoBounds } from "./video-bounds.js";

/** What the worker reads of an upload by ffmpeg (uploads/upload-media.ts). */
export interface UploadReader {
  /** The subtitle stream at the file's stream index `streamIndex`, as SubRip text. */
  subtitles(uploadId: string, streamIndex: number, signal?: AbortSignal): Promise<string>;
  /** The first audio track as a file written into `folder`; answers its path. */
  audio(uploadId: string, folder: string, signal?: AbortSignal): Promise<string>;
}

/** The uploads service as the worker uses it (uploads/uploads.ts). */
export interface UploadFiles {
  readonly media: UploadReader;
  /** Removes a taken upload's row and bytes once its video settled. */
  settled(uploadId: string): Promise<void>;
}

export interface UploadWordsOptions {
  readonly store: Store;
  readonly files: UploadFiles;
  readonly speechToText?: SpeechToText;
  readonly bounds: VideoBounds;
}

/** A failure to read the file the upload measured: its bytes were lost or changed. */
function unreadable(error: unknown, signal: AbortSignal): never {
  if (signal.aborted) throw signal.reason;
  if (error instanceof PlatformError || error instanceof TranscriptionError) throw error;
  throw new PlatformError(
    "video_unavailable",
    `The uploaded file could not be read: ${(error as Error).message}`,
  );
}

export class UploadWords {
  constructor(private readonly options: UploadWordsOptions) {}

  async wordsOf(
    video: ClaimedVideo,
    uploadId: string,
    signal: AbortSignal,
  ): Promise<{ transcript: Transcript; transcribed: boolean }> {
    const row = await this.options.store.db
      .selectFrom("uploads")
      .select(["subtitle_stream", "duration_ms"])
      .where("id", "=", uploadId)
      .where("job_id", "=", video.jobId)
      .executeTakeFirst();
    if (row === undefined) {
      throw new PlatformError("video_unavailable", `The uploaded file ${uploadId} is no longer kept.`);
    }
    const seconds = Number(row.duration_ms) / 1000;
    const canTranscribe = this.options.speechToText !== undefined;
    // Its subtitle stream is read unless the one rule transcribes whatever the captions (`always`).
    if (row.subtitle_stream !== null && !transcribesAudio(video.transcribe, "not_asked", canTranscribe)) {
      const text = await this.options.files.media
        .subtitles(uploadId, row.subtitle_stream, signal)
        .catch((error: unknown) => unreadable(error, signal));
      const cues = parseCaptions(text, "srt");
      if (!transcribesAudio(video.transcribe, cues.length > 0 ? "usable" : "none", canTranscribe)) {
        return { transcript: { cues, durationSeconds: seconds }, transcribed: false };
      }
    } else if (!transcribesAudio(video.transcribe, "none", canTranscribe)) {
      throw new PlatformError(
        "no_captions",
        canTranscribe
          ? 'The file has no subtitle stream, and the job says `transcribe: "never"`.'
          : "The file has no subtitle stream, and this worker has no speech-to-text configured (VIDROWS_TRANSCRIBE_*).",
      );
    }
    return { transcript: await this.transcribe(video, uploadId, seconds, signal), transcribed: true };
  }

  /** The file's audio, re-encoded by ffmpeg into the speech-to-text folder, through the usual transcription. */
  private async transcribe(
    video: ClaimedVideo,
    uploadId: string,
    seconds: number,
    signal: AbortSignal,
  ): Promise<Transcript> {
    const speech = this.options.speechToText;
    if (speech === undefined) {
      throw new TranscriptionError(
        "This worker has no speech-to-text configured (VIDROWS_TRANSCRIBE_*).",
        false,
      );
    }
    const media = this.options.files.media;
    const audio = {
      download: async (_url: string, _videoId: string, folder: string, stop: AbortSignal | undefined) => ({
        path: await media.audio(uploadId, folder, stop).catch((error: unknown) => unreadable(error, signal)),
        durationSeconds: seconds,
      }),
    };
    const limits = await this.options.bounds.audioLimits(video.workspaceId);
    return speech.transcribe(video.videoId, video.videoId, signal, limits, audio);
  }
}

/**
 * Removes a settled video's upload, its row and its bytes: kept no longer than read. A removal that fails
 * is logged and left to the uploads' sweep (uploads/uploads.ts), which finds settled videos' uploads too.
 */
export async function removeSettledUpload(
  files: UploadFiles | undefined,
  video: ClaimedVideo,
  log: FastifyBaseLogger,
): Promise<void> {
  const uploadId = uploadIdOf(video.videoId);
  if (uploadId === null || files === undefined) return;
  await files.settled(uploadId).catch((error: unknown) => {
    logBackgroundFailure(log, error, { upload: uploadId }, "removing a settled video's upload failed");
  });
}
