// Where a `--cpu-prof` profile's busy time went, by area (Kysely, pg, Fastify, JSON, our code, socket
// writes, ...), so that a server's CPU per request can be split into parts.
import { readFileSync } from "node:fs";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function readProfile(path: string): CpuProfile {
  return JSON.parse(readFileSync(path, "utf8")) as CpuProfile;
}

export const areaNames = [
  "socket writes to PostgreSQL",
  "pg: protocol, parsing, pool",
  "Kysely: building and compiling",
  "Kysely: executor and driver",
  "vidrows code",
  "JSON",
  "Fastify: routing, hooks, reply",
  "socket writes of HTTP answers",
  "logging (pino)",
  "Node: event loop, socket reads, HTTP parser",
  "garbage collector",
  "other",
] as const;
export type Area = (typeof areaNames)[number];

/** The package a frame's file is in, the vidrows build ("vidrows"), "node" for Node's own, or "". */
function packageOf(url: string): string {
  if (url.startsWith("node:")) return "node";
  const inModules = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inModules) return inModules[1] as string;
  return url.includes("/dist/") ? "vidrows" : "";
}

const writeFunctions = new Set([
  "writev",
  "writeBuffer",
  "writeUtf8String",
  "writeLatin1String",
  "writeAsciiString",
]);

/** The area of the first frame, from the innermost out, that belongs to a known area. */
function areaOfPackage(pkg: string, url: string): Area | undefined {
  if (pkg === "pg" || pkg === "pg-protocol" || pkg === "pg-pool" || pkg === "pg-types")
    return "pg: protocol, parsing, pool";
  if (pkg === "kysely")
    return /query-compiler|query-builder|operation-node|parser\/|expression/.test(url)
      ? "Kysely: building and compiling"
      : "Kysely: executor and driver";
  if (pkg === "fast-json-stringify" || pkg === "secure-json-parse") return "JSON";
  if (pkg === "vidrows") return url.endsWith("/http/json-answers.js") ? "JSON" : "vidrows code";
  if (pkg === "pino" || pkg === "sonic-boom" || pkg === "thread-stream" || pkg === "pino-std-serializers")
    return "logging (pino)";
  if (
    pkg === "fastify" ||
    pkg.startsWith("@fastify/") ||
    ["find-my-way", "avvio", "ajv", "fastq", "light-my-request"].includes(pkg)
  )
    return "Fastify: routing, hooks, reply";
  return undefined;
}

/**
 * Busy milliseconds by area, leaving out the first `skipSeconds` (start-up) and idle time. A sample
 * goes to the innermost frame of a known package: time in Node's own code or a native function counts
 * for whichever library called it, except socket writes, which get areas of their own.
 */
export function profileAreas(profile: CpuProfile, skipSeconds = 0): Map<Area, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const memo = new Map<number, Area | null>();
  const areaOf = (id: number): Area | null => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const self = byId.get(id);
    let area: Area | null = null;
    const name = self?.callFrame.functionName ?? "";
    if (name === "(idle)") area = null;
    else if (name === "(garbage collector)") area = "garbage collector";
    else {
      const stack: ProfileNode[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at);
        if (frame) stack.push(frame);
      }
      if (writeFunctions.has(name)) {
        const toDatabase = stack.some((frame) => packageOf(frame.callFrame.url).startsWith("pg"));
        area = toDatabase ? "socket writes to PostgreSQL" : "socket writes of HTTP answers";
      } else {
        for (const frame of stack) {
          const found = areaOfPackage(packageOf(frame.callFrame.url), frame.callFrame.url);
          if (found) {
            area = found;
            break;
          }
        }
        area ??= stack.some((frame) => packageOf(frame.callFrame.url) === "node")
          ? "Node: event loop, socket reads, HTTP parser"
          : "other";
      }
    }
    memo.set(id, area);
    return area;
  };
  const busy = new Map<Area, number>();
  const skipUs = skipSeconds * 1e6;
  let elapsedUs = 0;
  profile.samples.forEach((id, i) => {
    const deltaUs = profile.timeDeltas[i] ?? 0;
    elapsedUs += deltaUs;
    if (elapsedUs < skipUs) return;
    const area = areaOf(id);
    if (area !== null) busy.set(area, (busy.get(area) ?? 0) + deltaUs / 1000);
  });
  return busy;
}

/** What a split of a process's CPU reports: the user-space areas, and the kernel's time as one. */
export const cpuAreaNames = [
  ...areaNames.filter((area) => !area.startsWith("socket writes")),
  "kernel: system calls (socket writes and reads)",
] as const;
export type CpuArea = (typeof cpuAreaNames)[number];

/**
 * A process's measured CPU split by area. The profiler samples wall time: a socket write that wakes
 * PostgreSQL (or the load generator) on a busy machine often loses the CPU to it, and the wait is
 * sampled as time in the write. Measured, a profile's busy time ran 50% over the process's CPU time
 * in the same window, by about the writes' share. So the kernel's time is taken from /proc (system
 * time: mostly the socket calls), and the user time is split by the other areas' shares.
 */
export function cpuSplit(
  busy: Map<Area, number>,
  userMicros: number,
  systemMicros: number,
): Record<CpuArea, number> {
  const userAreas = cpuAreaNames.filter((area): area is Area => areaNames.includes(area as Area));
  const userBusy = userAreas.reduce((total, area) => total + (busy.get(area) ?? 0), 0);
  const split = {} as Record<CpuArea, number>;
  for (const area of userAreas)
    split[area] = userBusy === 0 ? 0 : ((busy.get(area) ?? 0) / userBusy) * userMicros;
  split["kernel: system calls (socket writes and reads)"] = systemMicros;
  return split;
}

/** Each area's share of the busy time, in the order of `areaNames`. */
export function areaShares(busy: Map<Area, number>): { area: Area; share: number }[] {
  const total = [...busy.values()].reduce((a, b) => a + b, 0);
  return areaNames.map((area) => ({ area, share: total === 0 ? 0 : (busy.get(area) ?? 0) / total }));
}
