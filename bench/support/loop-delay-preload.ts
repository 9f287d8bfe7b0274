// Loaded with `--import` into a process the benchmark measures (support/processes.ts, `loopDelay`):
// watches its event loop's delay and answers the benchmark over the IPC channel it was started with
// (see loop-delay.ts). It does nothing in a process without that channel, and never keeps one alive.
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { GcTally, isLoopDelayRequest, loopDelayOf, loopDelayResolutionMs } from "./loop-delay.js";

if (process.env.BENCH_LOOP_DELAY === "1" && typeof process.send === "function" && process.channel) {
  const histogram = monitorEventLoopDelay({ resolution: loopDelayResolutionMs });
  histogram.enable();
  const collections = new GcTally();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.add(entry);
  }).observe({ entryTypes: ["gc"] });
  process.on("message", (message: unknown) => {
    if (!isLoopDelayRequest(message)) return;
    if (message.loopDelay === "reset") {
      histogram.reset();
      collections.reset();
    } else {
      const delay = loopDelayOf(histogram, loopDelayResolutionMs);
      process.send?.({ loopDelayAnswer: { ...delay, gc: collections.pauses() } });
    }
  });
  // The channel must not hold the process open: the server exits on SIGTERM as it would unwatched.
  process.channel.unref();
}
