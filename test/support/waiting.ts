// Bounded waiting: polls a condition until it holds, and fails with what was awaited when time runs out.
import { sleep } from "../../src/concurrency/sleep.js";

/** Polls `check` until it answers a value other than undefined/false; throws after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Gave up after ${timeoutMs} ms waiting for ${what}.`);
    await sleep(intervalMs);
  }
}
