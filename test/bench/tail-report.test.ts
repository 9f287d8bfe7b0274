// The HTTP section's tail (bench/http/tail-report.ts): each endpoint's p99 and p99.9 beside the bare
// server's with both loops' delay, and the summary line with the worst p99 ratio among the default reads;
// also how --endpoints chooses rows, and the profile's long stretches (bench/support/long-stretches.ts).
import { describe, expect, it } from "vitest";
import { chosenEndpoints, httpEndpoints } from "../../bench/http/http-endpoints.js";
import type { EndpointResult, HttpSectionResult } from "../../bench/http/http-section.js";
import type { MeasuredLoad } from "../../bench/http/load.js";
import { tailSummaryLine, tailTable } from "../../bench/http/tail-report.js";
import { longStretches } from "../../bench/support/long-stretches.js";
import type { CpuProfile } from "../../bench/support/profile-areas.js";
import type { SeededHistory } from "../../bench/support/seed.js";

const delay = (p99Ms: number) => ({
  samples: 5000,
  meanMs: 0.1,
  p50Ms: 0.05,
  p99Ms,
  p999Ms: p99Ms * 2,
  maxMs: 40,
});

function load(rps: number, p99: number, p999: number, loopP99?: number): MeasuredLoad {
  return {
    requestsPerSecond: rps,
    completed: rps * 5,
    ok: rps * 5,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statusCounts: { "200": rps * 5 },
    latencyMs: { mean: 1, p50: 1, p90: 2, p99, p999, max: p999 * 2 },
    durationSeconds: 5,
    peakRssMb: 100,
    highWaterRssMb: 100,
    cpuMicrosPerRequest: 40,
    systemCpuMicrosPerRequest: 10,
    preemptionsPerRequest: 0,
    ...(loopP99 !== undefined && {
      loopDelay: { ...delay(loopP99), gc: { count: 10, major: 0, totalMs: 5, maxMs: 0.8 } },
    }),
  };
}

function endpoint(
  name: string,
  real: MeasuredLoad,
  bare: MeasuredLoad,
  judged = true,
  method: "GET" | "POST" = "GET",
): EndpointResult {
  const paced = { sent: 5000, ok: 5000, failed: 0, latencyMs: { p50: 1, p90: 2, p99: 3, p999: 6, max: 8 } };
  return {
    name,
    method,
    path: "/",
    targetRatio: judged ? 0.5 : null,
    targetP99Ratio: judged ? 3 : null,
    load: real,
    bareLoad: bare,
    ratio: real.requestsPerSecond / bare.requestsPerSecond,
    cpuRatio: 0.5,
    roundRatios: [real.requestsPerSecond / bare.requestsPerSecond],
    p99Ratio: real.latencyMs.p99 / bare.latencyMs.p99,
    p999Ratio: real.latencyMs.p999 / bare.latencyMs.p999,
    paced: { ratePerSecond: 1000, load: paced, bareLoad: paced, maxSendLagMs: 1, p99Ratio: 1, p999Ratio: 1 },
  };
}

function section(endpoints: EndpointResult[]): HttpSectionResult {
  return {
    dialect: "sqlite",
    jobs: 100,
    videos: 300,
    seedSeconds: 1,
    connections: 50,
    durationSeconds: 5,
    rounds: 1,
    logLevel: "info",
    bare: { get: load(40000, 2, 4), post: load(20000, 3, 5) },
    endpoints,
    pairs: [],
    serverPeakRssMb: 100,
  };
}

const bare = load(40000, 2, 4, 0.3);

describe("the tail in the benchmark's report", () => {
  it("names the worst p99 ratio among the default reads, not the queries-run rows or submissions", () => {
    const line = tailSummaryLine(
      section([
        endpoint("GET /v1/{job_id}", load(28000, 5, 9, 0.6), bare),
        endpoint("GET /v1/keys", load(26000, 9, 12, 1.5), bare),
        endpoint("GET /v1/keys, queries run", load(6000, 40, 80, 4), bare, false),
        endpoint("POST /v1 (10 videos)", load(8000, 30, 60, 3), bare, true, "POST"),
      ]),
    );
    expect(line).toBe(
      "Tail on sqlite: worst read p99 / bare p99 **4.5x** (GET /v1/keys); worst p99.9 / bare 3.0x (GET /v1/keys); least real/bare 0.65 (GET /v1/keys); server loop delay p99 up to 1.50 ms (GET /v1/keys), bare's up to 0.30 ms; reads within 3x at 0.6 of bare: **no**.",
    );
  });

  it("says the goal is met when every default read is within 3x of bare at 0.6 of its rate", () => {
    const line = tailSummaryLine(section([endpoint("GET /v1/usage", load(30000, 5, 8, 0.5), bare)]));
    expect(line).toMatch(/\*\*2\.5x\*\* \(GET \/v1\/usage\);.*reads within 3x at 0\.6 of bare: yes\.$/);
  });

  it("says so when no default read was measured", () => {
    expect(tailSummaryLine(section([]))).toBe("Tail on sqlite: no default read was measured.");
  });

  it("tabulates p99, p99.9, both loops' delay and the collector's pauses, and ends with the summary line", () => {
    const table = tailTable(section([endpoint("GET /v1/keys", load(26000, 9, 12, 1.5), bare)]));
    const row = table.split("\n").find((line) => line.startsWith("| GET /v1/keys"));
    // p99, bare, ratio, p99.9, bare, ratio, paced p99.9 both, loop delay (4), bare's (4), GC (2), bare's (2)
    expect(row).toBe(
      "| GET /v1/keys | 9.00 | 2.00 | 4.5 | 12.00 | 4.00 | 3.0 | 6.00 | 6.00 | 0.05 | 1.50 | 3.00 | 40.0 | 0.05 | 0.30 | 0.60 | 40.0 | 0.0 | 0.80 | 0.0 | 0.80 |",
    );
    expect(table.trimEnd().split("\n").at(-1)).toMatch(/^Tail on sqlite: worst read p99/);
  });

  it("shows a dash where a server's loop was not watched", () => {
    const table = tailTable(section([endpoint("GET /v1/keys", load(26000, 9, 12), load(40000, 2, 4))]));
    expect(table).toContain("| - | - | - | - | - | - | - | - | - | - | - | - |");
  });
});

describe("--endpoints", () => {
  const all = httpEndpoints(
    "sqlite",
    { handedOverJobId: "job_x", searchPrefix: "job_" } as SeededHistory,
    "{}",
  );

  it("takes a part of a name, or a whole name after =", () => {
    expect(chosenEndpoints(all, ["keys"]).map((e) => e.name)).toEqual([
      "GET /v1/keys",
      "GET /v1/keys, queries run",
    ]);
    expect(chosenEndpoints(all, ["=GET /v1/keys", "=GET /v1/usage"]).map((e) => e.name)).toEqual([
      "GET /v1/usage",
      "GET /v1/keys",
    ]);
    expect(chosenEndpoints(all, ["=GET /v1/key"])).toEqual([]);
    expect(chosenEndpoints(all, [])).toHaveLength(all.length);
  });
});

describe("long stretches of a profile", () => {
  const frame = (id: number, functionName: string, children: number[] = []) => ({
    id,
    callFrame: { functionName, url: `file:///app/dist/x/${functionName}.js`, lineNumber: 0 },
    children,
  });
  // root -> handler -> query; root -> (garbage collector); root -> (idle)
  const profile: CpuProfile = {
    nodes: [
      frame(1, "(root)", [2, 4, 5]),
      frame(2, "handler", [3]),
      frame(3, "query"),
      { id: 4, callFrame: { functionName: "(garbage collector)", url: "", lineNumber: 0 } },
      { id: 5, callFrame: { functionName: "(idle)", url: "", lineNumber: 0 } },
    ],
    // query 4 ms, handler 1, GC 3, idle 6, query 2, GC 1 (1 ms each)
    samples: [3, 3, 3, 3, 2, 4, 4, 4, 5, 5, 5, 5, 5, 5, 3, 3, 4],
    timeDeltas: Array.from({ length: 17 }, () => 1000),
  };

  it("finds the runs of one stack of at least the minimum, longest first, idle left out", () => {
    expect(longStretches(profile, 2)).toEqual([
      { stack: "query (x/query.js:1) < handler (x/handler.js:1)", count: 2, longestMs: 4, totalMs: 6 },
      { stack: "(garbage collector)", count: 1, longestMs: 3, totalMs: 3 },
    ]);
    expect(longStretches(profile, 3).map((s) => s.longestMs)).toEqual([4, 3]);
  });
});
