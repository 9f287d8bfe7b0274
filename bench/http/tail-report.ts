// The HTTP section's tail: each endpoint's p99 and p99.9 beside the bare server's, the event-loop delay
// of the server under test and of the bare one over the same loads, and one summary line with the
// worst p99 ratio of the reads, so that a change that lengthens the tail shows in the run that has
// its own baseline (issue 39).
import type { EndpointResult, HttpSectionResult } from "./http-section.js";
import type { MeasuredLoad } from "./load.js";
import type { LoopDelay } from "../support/loop-delay.js";

/** The reads' goal: p99 at most this many times the bare server's, at this share of its rate or more. */
export const readTailTargets = { p99Ratio: 3, requestsRatio: 0.6 } as const;

const fixed = (n: number | undefined, digits: number) =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : "-";
const delayCells = (delay: LoopDelay | undefined) =>
  delay
    ? `${fixed(delay.p50Ms, 2)} | ${fixed(delay.p99Ms, 2)} | ${fixed(delay.p999Ms, 2)} | ${fixed(delay.maxMs, 1)}`
    : "- | - | - | -";
/** The collector's pause time per 1,000 answered requests, and its longest pause. */
const gcCells = (load: MeasuredLoad) => {
  const gc = load.loopDelay?.gc;
  if (!gc) return "- | -";
  return `${fixed((gc.totalMs * 1000) / Math.max(1, load.completed), 1)} | ${fixed(gc.maxMs, 2)}`;
};

export function tailTable(section: HttpSectionResult): string {
  const lines = [
    `### The tail on ${section.dialect}: p99 and p99.9 against the bare server, and the event loop's delay`,
    "",
    "| Endpoint | p99 ms | bare p99 ms | p99 / bare | p99.9 ms | bare p99.9 ms | p99.9 / bare | paced p99.9 ms | bare paced p99.9 ms | loop delay p50 ms | p99 | p99.9 | max | bare loop delay p50 ms | p99 | p99.9 | max | GC ms per 1k req | longest GC ms | bare GC ms per 1k req | bare longest GC ms |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const endpoint of section.endpoints) {
    const { load, bareLoad, paced } = endpoint;
    lines.push(
      `| ${endpoint.name} | ${fixed(load.latencyMs.p99, 2)} | ${fixed(bareLoad.latencyMs.p99, 2)} | ${fixed(endpoint.p99Ratio, 1)} | ${fixed(load.latencyMs.p999, 2)} | ${fixed(bareLoad.latencyMs.p999, 2)} | ${fixed(endpoint.p999Ratio, 1)} | ${fixed(paced.load.latencyMs.p999, 2)} | ${fixed(paced.bareLoad.latencyMs.p999, 2)} | ${delayCells(load.loopDelay)} | ${delayCells(bareLoad.loopDelay)} | ${gcCells(load)} | ${gcCells(bareLoad)} |`,
    );
  }
  lines.push(
    "",
    "Latencies under the saturating load (all connections busy), each request timed to the µs by the load generator; paced: both offered the same rate at once. Loop delay: `perf_hooks.monitorEventLoopDelay` (1 ms resolution) inside the server under test over the endpoint's measured load, and inside the bare server over its run right after (`bench/support/loop-delay.ts`); a request waits for the whole of a long turn of its server's loop. GC: the pauses of `PerformanceObserver` gc entries over the same loads.",
    "",
    tailSummaryLine(section),
  );
  return lines.join("\n");
}

/** The endpoint with the largest `pick`, or undefined among none. */
function worst(endpoints: readonly EndpointResult[], pick: (e: EndpointResult) => number) {
  return endpoints.reduce<EndpointResult | undefined>(
    (found, e) => (found === undefined || pick(e) > pick(found) ? e : found),
    undefined,
  );
}

/**
 * One line: the worst p99 / bare p99 among the reads as the server runs by default (not the "queries
 * run" or switched-off rows), the worst p99.9 ratio, the least real/bare by requests per second, the
 * server's longest loop delay at p99 beside the bare server's, and whether the reads' goal is met.
 */
export function tailSummaryLine(section: HttpSectionResult): string {
  const reads = section.endpoints.filter((e) => e.method === "GET" && e.targetP99Ratio !== null);
  const head = `Tail on ${section.dialect}:`;
  const p99 = worst(reads, (e) => e.p99Ratio);
  const p999 = worst(reads, (e) => e.p999Ratio);
  const slowest = worst(reads, (e) => -e.ratio);
  const delay = worst(reads, (e) => e.load.loopDelay?.p99Ms ?? 0);
  if (!p99 || !p999 || !slowest || !delay) return `${head} no default read was measured.`;
  const bareDelay = Math.max(0, ...reads.map((e) => e.bareLoad.loopDelay?.p99Ms ?? 0));
  const met = reads.every(
    (e) => e.p99Ratio <= readTailTargets.p99Ratio && e.ratio >= readTailTargets.requestsRatio,
  );
  return [
    `${head} worst read p99 / bare p99 **${fixed(p99.p99Ratio, 1)}x** (${p99.name});`,
    `worst p99.9 / bare ${fixed(p999.p999Ratio, 1)}x (${p999.name});`,
    `least real/bare ${fixed(slowest.ratio, 2)} (${slowest.name});`,
    `server loop delay p99 up to ${fixed(delay.load.loopDelay?.p99Ms, 2)} ms (${delay.name}), bare's up to ${fixed(bareDelay, 2)} ms;`,
    `reads within ${readTailTargets.p99Ratio}x at ${readTailTargets.requestsRatio} of bare: ${met ? "yes" : "**no**"}.`,
  ].join(" ");
}
