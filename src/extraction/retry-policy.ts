// Runs an attempt again after failures that may pass, with exponential backoff and jitter; abortable.
import { type Backoff, backoffDelay, halfJitter } from "../concurrency/backoff.js";
import { sleep } from "../concurrency/sleep.js";

export interface RetryOptions {
  /** How many attempts in all, the first included. */
  readonly attempts: number;
  /** The wait before the second attempt; each later wait doubles, up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const defaultRetry: RetryOptions = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** Whether a failure may pass if tried again, and the least wait the other side asked for (`Retry-After`). */
export type RetryVerdict =
  { readonly retry: false } | { readonly retry: true; readonly waitAtLeastMs?: number };

/** The attempts ran out, or a failure was not worth retrying; `cause` is the last failure. */
export class RetriesExhaustedError extends Error {
  constructor(
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(lastError instanceof Error ? lastError.message : String(lastError), { cause: lastError });
  }
}

export function validateRetry(options: RetryOptions): RetryOptions {
  const { attempts, baseDelayMs, maxDelayMs } = options;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`attempts must be >= 1; got ${attempts}.`);
  if (!(baseDelayMs >= 0) || !(maxDelayMs >= baseDelayMs)) {
    throw new RangeError(
      `retry delays must satisfy 0 <= baseDelayMs <= maxDelayMs; got ${baseDelayMs}, ${maxDelayMs}.`,
    );
  }
  return options;
}

/**
 * The policy's waits as a backoff: half of each wait fixed, half random, so that the many chunks a busy
 * endpoint turned away at once do not all come back at the same instant.
 */
export function retryBackoff(options: RetryOptions): Backoff {
  return { firstMs: options.baseDelayMs, maxMs: options.maxDelayMs, jitter: halfJitter };
}

export interface RetryContext extends RetryOptions {
  readonly classify: (error: unknown) => RetryVerdict;
  readonly signal?: AbortSignal | undefined;
  readonly random?: () => number;
}

/**
 * `attempt(n)` until it succeeds, for at most `attempts` tries. An abort ends it at once with the signal's
 * reason (the caller is stopping, not failing); any other end is a RetriesExhaustedError.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  context: RetryContext,
): Promise<T> {
  const { signal } = context;
  for (let attemptNumber = 1; ; attemptNumber++) {
    signal?.throwIfAborted();
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      signal?.throwIfAborted();
      const verdict = context.classify(error);
      if (!verdict.retry || attemptNumber >= context.attempts)
        throw new RetriesExhaustedError(attemptNumber, error);
      const backoff = backoffDelay(attemptNumber, retryBackoff(context), context.random);
      await sleep(Math.min(context.maxDelayMs, Math.max(backoff, verdict.waitAtLeastMs ?? 0)), signal);
    }
  }
}
