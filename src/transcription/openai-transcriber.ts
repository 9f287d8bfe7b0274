// Speech-to-text through any OpenAI-compatible `/audio/transcriptions` endpoint (OpenAI, a local
// whisper server, vLLM...): the piece uploaded as multipart, segment times asked for, plain text accepted.
import { openAsBlob } from "node:fs";
import { basename, extname } from "node:path";
import { BodyTooLarge, readBoundedText } from "../platforms/bounded-body.js";
import { PlatformError } from "../platforms/platform-error.js";
import { retryAfterMs } from "../domain/retry-after.js";
import { inMegabytes } from "../domain/media-bounds.js";
import { readTranscriptionAnswer } from "./transcription-answer.js";
import {
  type AudioPiece,
  type PieceTranscription,
  type Transcriber,
  TranscriptionError,
} from "./transcriber.js";

export interface OpenAiTranscriberOptions {
  /** The API root, such as `https://api.openai.com/v1`; `/audio/transcriptions` is added to it. */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  /** The longest one request may take before it is given up (and may be tried again). */
  readonly requestTimeoutMs: number;
  /** The largest answer read; past it the video fails (its words would cost more than it is charged). */
  readonly maxAnswerBytes?: number;
}

/** An answer is a few hundred bytes a minute of speech, a few MB for the longest piece: 16 MB is generous. */
export const defaultMaxAnswerBytes = 16_000_000;

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
  readonly retryAfterMs: number | undefined;
}

/** What a server that cannot give segment times says when asked for them. */
const refusesTimesPattern = /verbose_json|response_format|timestamp_granularities/i;

const audioTypes: Record<string, string> = {
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".mp4": "audio/mp4",
  ".webm": "audio/webm",
  ".ogg": "audio/ogg",
  ".opus": "audio/ogg",
  ".flac": "audio/flac",
};

export class OpenAiTranscriber implements Transcriber {
  private readonly url: string;

  constructor(private readonly options: OpenAiTranscriberOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  }

  /**
   * Segment times are asked for each time: a server that refused them (a 400 naming `verbose_json`) is
   * asked again for plain `json` in the same request's turn only, since one refusal (a model behind a
   * router, a server being upgraded) says nothing of the next request.
   */
  async transcribe(piece: AudioPiece, options: { signal?: AbortSignal } = {}): Promise<PieceTranscription> {
    const answer = await this.post(piece, "verbose_json", options.signal);
    if (!(answer.status === 400 && refusesTimesPattern.test(answer.body))) return this.read(answer, piece);
    return this.read(await this.post(piece, "json", options.signal), piece);
  }

  private read(answer: Answer, piece: AudioPiece) {
    if (answer.status < 200 || answer.status > 299) {
      // A 408, a 429 or a 5xx may pass; a refused key or a refused file will not.
      const mayPass = answer.status === 408 || answer.status === 429 || answer.status >= 500;
      throw new TranscriptionError(
        `The transcription service answered ${answer.status}: ${answer.body.slice(0, 300)}`,
        mayPass,
        mayPass ? answer.retryAfterMs : undefined,
      );
    }
    return readTranscriptionAnswer(answer.body, answer.contentType, piece.durationSeconds);
  }

  private async post(
    piece: AudioPiece,
    format: "verbose_json" | "json",
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    const form = new FormData();
    const type = audioTypes[extname(piece.path).toLowerCase()] ?? "application/octet-stream";
    // Read from the file as the upload goes, not held whole in memory.
    form.append("file", await openAsBlob(piece.path, { type }), basename(piece.path));
    form.append("model", this.options.model);
    form.append("response_format", format);
    if (format === "verbose_json") form.append("timestamp_granularities[]", "segment");
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs);
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        body: form,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const maxBytes = this.options.maxAnswerBytes ?? defaultMaxAnswerBytes;
      return {
        status: response.status,
        body: await readBoundedText(response.body, maxBytes),
        contentType: response.headers.get("content-type") ?? "",
        retryAfterMs: retryAfterMs((name) => response.headers.get(name)),
      };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof BodyTooLarge) {
        throw new PlatformError(
          "video_unavailable",
          `The transcription of this video's audio was larger than ${inMegabytes(this.options.maxAnswerBytes ?? defaultMaxAnswerBytes)} (VIDROWS_TRANSCRIBE_MAX_ANSWER_BYTES), more than any speech gives; nothing was charged.`,
        );
      }
      const why = timeout.aborted
        ? `no answer within ${this.options.requestTimeoutMs / 1000} s`
        : (error as Error).message;
      throw new TranscriptionError(`The transcription service could not be reached: ${why}.`, true);
    }
  }
}
