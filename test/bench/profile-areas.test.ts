// How the benchmark splits a profile by area (bench/support/profile-areas.ts): samples go to the innermost frame
// of a known package, socket writes get areas of their own, idle time none, and the CPU split adds up.
import { describe, expect, it } from "vitest";
import { type CpuProfile, cpuSplit, profileAreas } from "../../bench/support/profile-areas.js";

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 0 },
  children,
});

// root -> Fastify route -> our handler -> pg query -> Node's socket code -> writev;
// our handler -> our JSON answer; root -> (idle), (garbage collector)
const profile: CpuProfile = {
  nodes: [
    frame(1, "(root)", "", [2, 7, 8]),
    frame(2, "routeHandler", "file:///app/node_modules/fastify/lib/route.js", [3]),
    frame(3, "sendJobRead", "file:///app/dist/jobs/job-routes.js", [4, 9]),
    frame(4, "query", "file:///app/node_modules/pg/lib/client.js", [5]),
    frame(5, "writevGeneric", "node:internal/stream_base_commons", [6]),
    frame(6, "writev", ""),
    frame(7, "(idle)", ""),
    frame(8, "(garbage collector)", ""),
    frame(9, "sendJsonAnswer", "file:///app/dist/http/json-answers.js"),
  ],
  // 1 ms each: writev 4, Node code under pg 2, our handler 1, JSON 1, Fastify 1, idle 5, GC 1.
  samples: [6, 6, 6, 6, 5, 5, 3, 9, 2, 7, 7, 7, 7, 7, 8],
  timeDeltas: Array.from({ length: 15 }, () => 1000),
};

describe("profile areas", () => {
  it("gives each busy sample to the innermost known package, and leaves idle out", () => {
    const busy = profileAreas(profile);
    expect(Object.fromEntries(busy)).toEqual({
      "socket writes to PostgreSQL": 4,
      "pg: protocol, parsing, pool": 2,
      "vidrows code": 1,
      JSON: 1,
      "Fastify: routing, hooks, reply": 1,
      "garbage collector": 1,
    });
  });

  it("leaves out the first seconds when asked", () => {
    const busy = profileAreas(profile, 0.004);
    expect(busy.get("socket writes to PostgreSQL") ?? 0).toBe(1);
  });

  it("splits user time by the shares outside socket writes, and takes the kernel's time as measured", () => {
    const split = cpuSplit(profileAreas(profile), 60, 40);
    expect(split["kernel: system calls (socket writes and reads)"]).toBe(40);
    expect(split["pg: protocol, parsing, pool"]).toBeCloseTo(20);
    expect(split["vidrows code"]).toBeCloseTo(10);
    const total = Object.values(split).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(100);
  });
});
