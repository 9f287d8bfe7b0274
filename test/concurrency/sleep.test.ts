// The abortable sleep: it waits its time, and an abort ends it at once with the signal's reason.
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/concurrency/sleep.js";

describe("sleep", () => {
  it("resolves after about the time asked", async () => {
    const started = performance.now();
    await sleep(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it("rejects with the reason as soon as the signal aborts", async () => {
    const controller = new AbortController();
    const reason = new Error("stopping");
    const started = performance.now();
    const waiting = sleep(60_000, controller.signal);
    setTimeout(() => controller.abort(reason), 10);
    await expect(waiting).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("rejects at once when the signal has already aborted", async () => {
    const reason = new Error("already stopped");
    await expect(sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("takes its listener off a signal that outlives it", async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    }) as typeof signal.removeEventListener;
    await sleep(1, signal);
    expect(listeners).toBe(0);
  });
});
