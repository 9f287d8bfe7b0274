// When a failed attempt may be tried again, and how long to wait first.
import type { VidrowsError } from "./errors.js";

/**
 * How freely a request may be repeated:
 * - `repeatable`: doing it twice is the same as once (reads, updates, deletes, and a submission, which
 *   always carries its `Idempotency-Key`). Retried on network errors, time-outs, 429 and 5xx.
 * - `once`: a second attempt could act twice (a new key, endpoint, schema or version, a resend) or find
 *   the first attempt's effect spent (taking a job's rows). Retried only when the server provably did
 *   nothing: 429 (refused before any route runs), 503 `unavailable` (the database could not be
 *   reached, so no transaction committed), and a connection that failed before the request was sent.
 */
export type RetryMode = "repeatable" | "once";

/** Node's (undici's) causes for a connection that never carried the request. */
const neverSentCauses = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/** Whether a fetch failure proves the request never left: only runtimes that say why (Node) can prove it. */
export function failedBeforeSending(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" && neverSentCauses.has(cause.code);
}

/** Whether a failed attempt (an answer's error, or none) may be retried under `mode`. */
export function mayRetry(mode: RetryMode, error: VidrowsError, neverSent: boolean): boolean {
  if (error.code === "aborted") return false;
  if (error.status === null) return mode === "repeatable" || neverSent;
  if (error.status === 429) return true;
  if (mode === "once") return error.status === 503 && error.code === "unavailable";
  // Without a configured model, or without yt-dlp for listings, the server fails the same way however often
  // it is asked.
  if (error.code === "extraction_unavailable" || error.code === "listing_unavailable") return false;
  return error.status >= 500;
}

/** The longest `Retry-After` the client will sleep through; a longer one is handed to the caller. */
export const maxRetryAfterSeconds = 60;

/**
 * Milliseconds before retry number `retry` (0 for the first): the server's `Retry-After` when it gave
 * one, else exponential backoff from `baseMs` with jitter (half fixed, half random), so that many
 * clients failing together do not return together.
 */
export function retryDelayMs(
  retry: number,
  error: VidrowsError,
  baseMs: number,
  random = Math.random,
): number {
  if (error.retryAfterSeconds !== null) return error.retryAfterSeconds * 1000;
  const ceiling = Math.min(baseMs * 2 ** retry, 10_000);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
