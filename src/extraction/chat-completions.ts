// One chat-completions request to an OpenAI-compatible endpoint, over undici's request API.
import { request } from "undici";
import { retryAfterMs } from "../domain/retry-after.js";

/** The endpoint answered with an error status; `retryAfterMs` is what its headers asked to wait, if anything. */
export class ModelHttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** No answer came: the connection was refused or reset, or the request timed out. Worth asking again. */
export class ModelConnectionError extends Error {}

export interface ChatCompletionsOptions {
  /** The API root, such as `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** How long the answer may take (its headers, then each pause in its body). */
  readonly timeoutMs: number;
}

/** The `error.message` of an OpenAI-style error body, else the start of the body as it came. */
function errorMessage(status: number, body: string): string {
  let message: unknown;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    message = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
  } catch {
    // Not JSON: the body's text says what there is to say.
  }
  const text = typeof message === "string" ? message : body.slice(0, 300);
  return `HTTP ${status}${text ? `: ${text}` : ""}`;
}

/**
 * The OpenAI package cost a worker about 350 µs of CPU per request (its fetch, web streams, header
 * objects and request bookkeeping), a fifth of all the work on a video with an instant model; undici's
 * request API does the same POST for about 50 µs. The extractor needs one call, so this is all of it.
 */
export class ChatCompletions {
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(options: ChatCompletionsOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.headers = {
      "content-type": "application/json",
      accept: "application/json",
      authorization: `Bearer ${options.apiKey}`,
    };
    this.timeoutMs = options.timeoutMs;
  }

  /**
   * POSTs `body` and answers the parsed JSON of a 2xx answer. Rejects with the signal's reason on abort,
   * ModelHttpError for an error status, ModelConnectionError when no answer came, and SyntaxError for
   * an answer that is not JSON.
   */
  async create(body: object, signal: AbortSignal): Promise<unknown> {
    let status: number;
    let text: string;
    let headers: Record<string, string | string[] | undefined>;
    try {
      const response = await request(this.url, {
        method: "POST",
        headers: this.headers,
        body: JSON.stringify(body),
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = response.statusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      // The URL is named by its origin only; the key is in a header and never part of a message.
      throw new ModelConnectionError(
        `No answer from the model at ${new URL(this.url).origin}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (status < 200 || status >= 300) {
      const header = (name: string) => {
        const value = headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      throw new ModelHttpError(status, retryAfterMs(header), errorMessage(status, text));
    }
    return JSON.parse(text) as unknown;
  }
}
