// A load generator process: runs autocannon once with the options given as JSON in argv[2] and
// prints one JSON summary line, so the load never shares an event loop with the server or the bench.
import autocannon from "autocannon";
import type { LoadSpec, LoadSummary } from "./load.js";

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.durationSeconds,
  method: spec.method,
  headers: spec.headers,
  body: spec.body,
  timeout: 10,
});
const statusCounts: Record<string, number> = {};
for (const [status, stat] of Object.entries(result.statusCodeStats)) statusCounts[status] = stat.count;
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
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
  },
  durationSeconds: result.duration,
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
