// The event-loop delay the HTTP section reports (bench/support/loop-delay.ts): the histogram's figures
// in milliseconds, and the preload's answers over a real child's IPC channel, which never keeps the
// child alive.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createHistogram } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { isLoopDelayRequest, loopDelayOf, loopDelayProbe } from "../../bench/support/loop-delay.js";

const preload = fileURLToPath(new URL("../../bench/support/loop-delay-preload.ts", import.meta.url));

/** A child with the preload (through tsx) running `code`, with an IPC channel as the benchmark gives it. */
function childWith(code: string, env: Record<string, string> = { BENCH_LOOP_DELAY: "1" }) {
  return fork("-e", [code], {
    execArgv: ["--import", "tsx", `--import=${preload}`],
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
}

const exited = (child: ReturnType<typeof fork>) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

describe("the event-loop delay of a measured process", () => {
  it("turns the monitor's nanoseconds into milliseconds, its own interval taken off", () => {
    const histogram = createHistogram();
    for (let i = 1; i <= 1000; i++) histogram.record(1_000_000 + i * 10_000); // 1 ms + 0.01 to 10 ms
    const delay = loopDelayOf(histogram, 1);
    // The histogram keeps three significant figures: within 0.05 ms at these sizes.
    expect(delay.samples).toBe(1000);
    expect(delay.meanMs).toBeCloseTo(5.005, 1);
    expect(delay.p50Ms).toBeCloseTo(5, 1);
    expect(delay.p99Ms).toBeCloseTo(9.9, 1);
    expect(delay.p999Ms).toBeCloseTo(9.99, 1);
    expect(delay.maxMs).toBeCloseTo(10, 1);
    // A turn shorter than the interval (the timer fired early by the clock's grain) reads 0, not less.
    const early = createHistogram();
    early.record(900_000);
    expect(loopDelayOf(early, 1).maxMs).toBe(0);
  });

  it("reports an empty histogram as zeros, not NaN", () => {
    expect(loopDelayOf(createHistogram())).toEqual({
      samples: 0,
      meanMs: 0,
      p50Ms: 0,
      p99Ms: 0,
      p999Ms: 0,
      maxMs: 0,
    });
  });

  it("takes only its own two messages", () => {
    expect(isLoopDelayRequest({ loopDelay: "read" })).toBe(true);
    expect(isLoopDelayRequest({ loopDelay: "reset" })).toBe(true);
    expect(isLoopDelayRequest({ loopDelay: "exit" })).toBe(false);
    expect(isLoopDelayRequest("read")).toBe(false);
    expect(isLoopDelayRequest(null)).toBe(false);
  });

  it("is answered by the child's preload, a loop that was held showing the hold, and starts over on reset", async () => {
    // Holds its loop for 30 ms four times, then idles until told to stop (a timer keeps it alive, as
    // the server's listening socket keeps the server: the preload's channel does not).
    const child = childWith(`
      setInterval(() => {}, 1000);
      let holds = 0;
      const hold = () => { const until = Date.now() + 30; while (Date.now() < until); if (++holds < 4) setTimeout(hold, 20); else process.send("held"); };
      setTimeout(hold, 20);
      process.on("message", (m) => { if (m === "stop") process.exit(0); });
    `);
    try {
      await new Promise<void>((resolve) => child.on("message", (m) => m === "held" && resolve()));
      const probe = loopDelayProbe(child);
      const held = await probe.read();
      expect(held?.samples).toBeGreaterThan(0);
      // The monitor counts each hold as (about) one sample of 30 ms or more.
      expect(held?.maxMs).toBeGreaterThanOrEqual(25);
      probe.reset();
      const afterReset = await probe.read();
      expect(afterReset?.maxMs ?? Infinity).toBeLessThan(held?.maxMs ?? 0);
    } finally {
      child.send("stop");
      await exited(child);
    }
  });

  it("never keeps the child alive: it exits when its work is done, the channel still open", async () => {
    const child = childWith("setTimeout(() => {}, 50);");
    expect(await exited(child)).toBe(0);
  });

  it("does nothing without BENCH_LOOP_DELAY=1: the child answers no read", async () => {
    const child = childWith(
      `setInterval(() => {}, 1000); process.on("message", (m) => { if (m === "stop") process.exit(0); });`,
      {
        BENCH_LOOP_DELAY: "",
      },
    );
    try {
      const answers: unknown[] = [];
      child.on("message", (m) => answers.push(m));
      child.send({ loopDelay: "read" });
      // A round trip the child does answer, so the read above has been seen by then.
      child.send("stop");
      await exited(child);
      expect(answers).toEqual([]);
    } finally {
      child.kill();
    }
  });
});
