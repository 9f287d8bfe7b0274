// The retry policy: attempts, which failures are retried, backoff bounds, and stopping on abort.
import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../src/concurrency/backoff.js";
import { RetriesExhaustedError, retryBackoff, withRetries } from "../../src/extraction/retry-policy.js";

const quick = { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 };

describe("retrying", () => {
  it("tries again after passing failures until one succeeds", async () => {
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw new Error("flaky");
        return "ok";
      },
      { ...quick, classify: () => ({ retry: true }) },
    );
    expect(result).toBe("ok");
    expect(calls).toBe(3);
  });

  it("gives up after the last attempt with the last failure", async () => {
    let calls = 0;
    const failure = await withRetries(
      async () => {
        calls++;
        throw new Error(`failure ${calls}`);
      },
      { ...quick, classify: () => ({ retry: true }) },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RetriesExhaustedError);
    expect((failure as RetriesExhaustedError).attempts).toBe(3);
    expect(((failure as RetriesExhaustedError).lastError as Error).message).toBe("failure 3");
  });

  it("does not retry a failure that will not pass", async () => {
    let calls = 0;
    const failure = await withRetries(
      async () => {
        calls++;
        throw new Error("bad request");
      },
      { ...quick, classify: () => ({ retry: false }) },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RetriesExhaustedError);
    expect(calls).toBe(1);
  });

  it("stops waiting at once when aborted, with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("shutting down");
    const outcome = withRetries(
      async () => {
        setImmediate(() => controller.abort(reason));
        throw new Error("flaky");
      },
      // A backoff of a minute: the test ends long before it unless the abort cuts it short.
      {
        attempts: 3,
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        classify: () => ({ retry: true }),
        signal: controller.signal,
      },
    );
    await expect(outcome).rejects.toBe(reason);
  });

  it("waits about twice as long after each failure, with jitter, up to the ceiling", () => {
    const options = retryBackoff({ attempts: 10, baseDelayMs: 100, maxDelayMs: 1000 });
    expect(backoffDelay(1, options, () => 0)).toBe(50);
    expect(backoffDelay(1, options, () => 1)).toBe(100);
    expect(backoffDelay(3, options, () => 1)).toBe(400);
    expect(backoffDelay(3, options, () => 0)).toBe(200);
    expect(backoffDelay(9, options, () => 1)).toBe(1000);
  });
});
