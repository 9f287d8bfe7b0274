// Loaded with `--import` into the process the soak measures (support/processes.ts, `memoryProbe`): answers
// the benchmark's "memory" message with `process.memoryUsage()` over the IPC channel it was started
// with. It does nothing in a process without that channel, and never keeps one alive.
if (process.env.BENCH_MEMORY === "1" && typeof process.send === "function" && process.channel) {
  process.on("message", (message: unknown) => {
    if (typeof message !== "object" || message === null || !("memory" in message)) return;
    const usage = process.memoryUsage();
    process.send?.({
      memoryAnswer: { heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external },
    });
  });
  // The channel must not hold the process open: the server exits on SIGTERM as it would unwatched.
  process.channel.unref();
}
