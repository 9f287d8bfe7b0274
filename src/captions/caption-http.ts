// One HTTP exchange for a captions source: a timeout on every request, the caller's abort signal honoured,
// a cap on the body size, an optional proxy, and failures told apart (timeout, network, too large).
import { type Dispatcher, fetch } from "undici";
import { BodyTooLarge, readBoundedText } from "../platforms/bounded-body.js";

export const defaultCaptionTimeoutMs = 15_000;
// A long video's captions are a few MB at most; a bigger answer is not captions.
const defaultMaxBytes = 32 * 1024 * 1024;

export interface HttpRequest {
  readonly url: string;
  readonly method?: "GET" | "POST";
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** undici's dispatcher, e.g. a ProxyAgent; undici's default agent without it. */
  readonly dispatcher?: Dispatcher;
  readonly maxBytes?: number;
}

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

/** The request got no usable answer at all; `reason` says why. */
export class HttpFailure extends Error {
  constructor(
    readonly reason: "timeout" | "network" | "too_large",
    message: string,
  ) {
    super(message);
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  // The egress guard answered the tunnel with an error: the address could not be reached (what the guard
  // saw stays in the operator's logs).
  if (/^Proxy response \(\d{3}\)/.test(cause?.message ?? "")) return "no connection could be made";
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

/**
 * Sends the request and reads the whole answer, whatever its status. Throws HttpFailure when there is no
 * answer, and the caller's own abort reason when the caller aborted.
 */
export async function httpRequest(request: HttpRequest): Promise<HttpAnswer> {
  request.signal?.throwIfAborted();
  // One controller for both the caller's signal and the timeout, both let go of when done: AbortSignal.any
  // over a worker's long-lived signal keeps a reference per request on some Node 20 releases.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const onAbort = () => controller.abort(request.signal?.reason);
  request.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await fetch(request.url, {
      method: request.method ?? "GET",
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
      dispatcher: request.dispatcher,
    });
    const text = await readBoundedText(response.body, request.maxBytes ?? defaultMaxBytes);
    return { status: response.status, contentType: response.headers.get("content-type"), text };
  } catch (error) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (error instanceof HttpFailure) throw error;
    if (error instanceof BodyTooLarge) throw new HttpFailure("too_large", error.message);
    if (timedOut) throw new HttpFailure("timeout", `no answer within ${request.timeoutMs / 1000} s`);
    throw new HttpFailure("network", `the request failed (${describeNetworkError(error)})`);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
  }
}
