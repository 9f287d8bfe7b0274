// A load generator process: runs autocannon once with the options given as JSON in argv[2] and
// prints one JSON summary line, so the load never shares an event loop with the server or the bench.
import autocannon from "autocannon";
import type { LoadSpec, LoadSummary } from "./load.js";
import { percentile } from "./paced-load.js";

/**
 * Autocannon's own histogram keeps whole milliseconds, too coarse for a p99 of 2-3 ms and its ratio
 * to another; each answered request's time is kept here as it comes (fractions of a millisecond), up
 * to this many (far above what 5-10 s of load on this machine answers).
 */
const maxLatencies = 4_000_000;

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
const latencies: number[] = [];
const instance = autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.durationSeconds,
  method: spec.method,
  headers: spec.headers,
  body: spec.body,
  timeout: 10,
});
instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
  if (statusCode >= 200 && statusCode < 300 && latencies.length < maxLatencies) latencies.push(responseTime);
});
const result = await instance;
const statusCounts: Record<string, number> = {};
for (const [status, stat] of Object.entries(result.statusCodeStats)) statusCounts[status] = stat.count;
const sorted = Float64Array.from(latencies).sort();
const ms = (value: number) => Math.round(value * 1000) / 1000;
const summary: LoadSummary = {
  requestsPerSecond: result["2xx"] / result.duration,
  completed: result.requests.total,
  ok: result["2xx"],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCounts,
  latencyMs: {
    mean: result.latency.mean,
    p50: ms(percentile(sorted, 0.5)),
    p90: ms(percentile(sorted, 0.9)),
    p99: ms(percentile(sorted, 0.99)),
    p999: ms(percentile(sorted, 0.999)),
    max: ms(sorted.at(-1) ?? 0),
  },
  durationSeconds: result.duration,
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
