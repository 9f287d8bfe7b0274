// One HTTP request to the API with its key, time-out and retries; answers parsed, failures as VidrowsError.
import { errorFromAnswer, VidrowsError } from "./errors.js";
import {
  failedBeforeSending,
  maxRetryAfterSeconds,
  mayRetry,
  type RetryMode,
  retryDelayMs,
  sleep,
} from "./retry-policy.js";

export interface TransportOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly retryBaseDelayMs: number;
  readonly fetch: typeof globalThis.fetch;
}

export interface ApiRequest {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path with its parameters filled in (and encoded). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** A body sent as it is (a file), with its content type, instead of `body` as JSON; never retried if a stream. */
  readonly rawBody?: {
    readonly data: Blob | Uint8Array | ReadableStream<Uint8Array>;
    readonly contentType: string;
  };
  /** This request's own time limit for the whole answer; null: none (an upload takes as long as its file). */
  readonly timeoutMs?: number | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly retry: RetryMode;
  readonly signal?: AbortSignal;
  /** Whether an error answer to a retry counts as success (a delete whose first attempt succeeded unseen). */
  readonly retryAnswerIsSuccess?: (error: VidrowsError) => boolean;
}

export interface RequestOptions {
  /** Abandons the request (and its retries) when it aborts. */
  readonly signal?: AbortSignal;
}

function abortedError(signal: AbortSignal): VidrowsError {
  return new VidrowsError({ code: "aborted", message: "The request was aborted.", cause: signal.reason });
}

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  private url(request: ApiRequest): string {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, "") + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** Sends `request`, retrying as its mode allows; resolves to the parsed JSON body (undefined for 204). */
  async send<T>(request: ApiRequest): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(request);
      if (outcome.ok) return outcome.body as T;
      const { error, neverSent } = outcome;
      if (attempt > 0 && request.retryAnswerIsSuccess?.(error)) return undefined as T;
      const tooLong = error.retryAfterSeconds !== null && error.retryAfterSeconds > maxRetryAfterSeconds;
      // A stream is read once: the file cannot be sent again.
      const unrepeatable = request.rawBody?.data instanceof ReadableStream;
      if (
        attempt >= this.options.maxRetries ||
        tooLong ||
        unrepeatable ||
        !mayRetry(request.retry, error, neverSent)
      ) {
        throw error;
      }
      try {
        await sleep(retryDelayMs(attempt, error, this.options.retryBaseDelayMs), request.signal);
      } catch {
        throw abortedError(request.signal as AbortSignal);
      }
    }
  }

  private async attempt(
    request: ApiRequest,
  ): Promise<{ ok: true; body: unknown } | { ok: false; error: VidrowsError; neverSent: boolean }> {
    const headers: Record<string, string> = {
      accept: "application/json",
      authorization: `Bearer ${this.options.apiKey}`,
      ...request.headers,
    };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (request.rawBody !== undefined) headers["content-type"] = request.rawBody.contentType;
    const timeoutMs = request.timeoutMs === undefined ? this.options.timeoutMs : request.timeoutMs;
    const timeout = new AbortController();
    const timer =
      timeoutMs === null
        ? undefined
        : setTimeout(() => timeout.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
    let response: Response;
    let text: string;
    try {
      response = await this.options.fetch(this.url(request), {
        method: request.method,
        headers,
        body:
          request.rawBody?.data ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
        signal,
        // A stream body is sent as it is read (fetch asks that this be said).
        ...(request.rawBody?.data instanceof ReadableStream ? { duplex: "half" } : {}),
      } as RequestInit);
      // The time-out covers the whole answer, body included.
      text = await response.text();
    } catch (cause) {
      if (request.signal?.aborted) throw abortedError(request.signal);
      const timedOut = timeout.signal.aborted;
      const error = new VidrowsError({
        code: timedOut ? "timeout" : "network_error",
        message: timedOut
          ? `No answer from ${this.options.baseUrl} within ${timeoutMs} ms.`
          : `Could not reach ${this.options.baseUrl}: ${(cause as Error).message}${causeDetail(cause)}`,
        cause,
      });
      return { ok: false, error, neverSent: !timedOut && failedBeforeSending(cause) };
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) return { ok: false, error: errorFromAnswer(response, text), neverSent: false };
    if (response.status === 204 || text === "") return { ok: true, body: undefined };
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch (cause) {
      throw new VidrowsError({
        code: "invalid_response",
        status: response.status,
        requestId: response.headers.get("x-request-id"),
        message: `HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
        cause,
      });
    }
  }
}

function causeDetail(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === "string") return ` (${cause.code})`;
  return typeof cause?.message === "string" ? ` (${cause.message})` : "";
}
