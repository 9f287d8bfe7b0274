// Runs one load (autocannon in a child process) against a server and samples the server's memory meanwhile.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { PacedSpec, PacedSummary } from "./paced-load.js";
import type { PostgresCpuMeter } from "../postgres/postgres-cpu.js";
import type { LoopDelay, LoopDelayProbe } from "../support/loop-delay.js";
import { cpuTimesOf, memoryOf, preemptionsOf } from "../support/processes.js";

export interface LoadSpec {
  url: string;
  connections: number;
  durationSeconds: number;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

export interface LoadSummary {
  /** 2xx responses per second. */
  requestsPerSecond: number;
  completed: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
  /** Each answered request's time, in ms to the µs (load-client.ts keeps them all, not autocannon's whole ms). */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; p999: number; max: number };
  durationSeconds: number;
}

export interface MeasuredLoad extends LoadSummary {
  /** The most resident memory the server held while loaded (sampled), in MB. */
  peakRssMb: number;
  /** The server's high-water mark of resident memory since it started (VmHWM), in MB. */
  highWaterRssMb: number;
  /**
   * The server's CPU time per answered request, in microseconds: unlike requests per second, barely
   * moved by other work on the machine, so the fairer figure to compare servers (and runs) by.
   */
  cpuMicrosPerRequest: number;
  /** The part of `cpuMicrosPerRequest` spent in the kernel (system time): socket writes and reads, mostly. */
  systemCpuMicrosPerRequest: number;
  /**
   * How often per request the server was taken off the CPU while runnable. A CPU profile counts that
   * wait as time in whatever the process was doing: mostly a socket write that woke PostgreSQL.
   */
  preemptionsPerRequest: number;
  /** The server's event-loop delay over the measured load, where it was watched (support/loop-delay.ts). */
  loopDelay?: LoopDelay;
  /** PostgreSQL only: its backends' CPU per request (those of the benchmark's database). */
  postgresCpuMicrosPerRequest?: number;
  /** PostgreSQL only: its background processes' CPU per request (WAL writer and the like, server-wide). */
  postgresBackgroundCpuMicrosPerRequest?: number;
}

const clientPath = fileURLToPath(new URL("./load-client.js", import.meta.url));
const pacedClientPath = fileURLToPath(new URL("./paced-client.js", import.meta.url));

/** Runs a load generator script in a process of its own with `spec` as JSON, and reads its one JSON line. */
function runGenerator<Summary>(scriptPath: string, spec: { durationSeconds: number }): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [scriptPath, JSON.stringify(spec)], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    // The generators stop themselves after the duration; this only guards against a hang.
    const timer = setTimeout(() => child.kill("SIGKILL"), (spec.durationSeconds + 60) * 1000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").pop() ?? "";
      if (code !== 0 || !line.startsWith("{")) {
        reject(new Error(`the load client failed (exit ${code}):\n${stdout}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(line) as Summary);
    });
  });
}

function runClient(spec: LoadSpec): Promise<LoadSummary> {
  return runGenerator<LoadSummary>(clientPath, spec);
}

/** One paced load (bench/http/paced-load.ts) from a process of its own. */
export function measurePaced(spec: PacedSpec): Promise<PacedSummary> {
  return runGenerator<PacedSummary>(pacedClientPath, spec);
}

/**
 * Loads `spec` on the server `serverPid`; with `warmupSeconds`, a short unrecorded run goes first; with
 * `loopDelay`, the server's event-loop delay over the measured run (not the warm-up) comes with it.
 */
export function measureLoad(
  spec: LoadSpec,
  serverPid: number,
  warmupSeconds = 0,
  postgres?: PostgresCpuMeter,
  loopDelay?: LoopDelayProbe,
): Promise<MeasuredLoad> {
  return measureLoads([{ spec, serverPid, loopDelay }], warmupSeconds, postgres);
}

/**
 * Several loads at once, each from its own load generator on its own server (two API processes, say),
 * summed: requests and CPU over all of them, the worst of their latencies.
 */
export async function measureLoads(
  loads: readonly { spec: LoadSpec; serverPid: number; loopDelay?: LoopDelayProbe }[],
  warmupSeconds = 0,
  postgres?: PostgresCpuMeter,
): Promise<MeasuredLoad> {
  if (warmupSeconds > 0)
    await Promise.all(loads.map(({ spec }) => runClient({ ...spec, durationSeconds: warmupSeconds })));
  const pids = loads.map((load) => load.serverPid);
  // Per process: the memory target is each process's.
  const rss = () => Math.max(...pids.map((pid) => memoryOf(pid).rssMb));
  let peakRssMb = rss();
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, rss());
  }, 100);
  const cpu = () =>
    pids.map(cpuTimesOf).reduce((a, b) => ({ user: a.user + b.user, system: a.system + b.system }));
  try {
    const endPostgres = await postgres?.begin();
    const preemptions = () => pids.map(preemptionsOf).reduce((a, b) => a + b, 0);
    const preemptionsBefore = preemptions();
    // One server's loop is reported; several at once (two API processes) have no one figure.
    const watched = loads.length === 1 ? loads[0]?.loopDelay : undefined;
    watched?.reset();
    const cpuBefore = cpu();
    const summaries = await Promise.all(loads.map(({ spec }) => runClient(spec)));
    const cpuAfter = cpu();
    const loopDelay = await watched?.read();
    const preempted = preemptions() - preemptionsBefore;
    const postgresSpent = await endPostgres?.();
    const summary = combined(summaries);
    const requests = Math.max(1, summary.completed);
    const perRequest = (seconds: number) => (seconds * 1e6) / requests;
    return {
      ...summary,
      peakRssMb: Math.max(peakRssMb, rss()),
      highWaterRssMb: Math.max(...pids.map((pid) => memoryOf(pid).highWaterMb)),
      cpuMicrosPerRequest: perRequest(cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system),
      systemCpuMicrosPerRequest: perRequest(cpuAfter.system - cpuBefore.system),
      preemptionsPerRequest: preempted / requests,
      ...(loopDelay && { loopDelay }),
      ...(postgresSpent && {
        postgresCpuMicrosPerRequest: perRequest(postgresSpent.backends),
        postgresBackgroundCpuMicrosPerRequest: perRequest(postgresSpent.background),
      }),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Loads run side by side as one: counts added, each latency the worse of theirs. */
function combined(summaries: LoadSummary[]): LoadSummary {
  if (summaries.length === 1) return summaries[0] as LoadSummary;
  const sum = (pick: (s: LoadSummary) => number) => summaries.reduce((total, s) => total + pick(s), 0);
  const worst = (pick: (s: LoadSummary) => number) => Math.max(...summaries.map(pick));
  const statusCounts: Record<string, number> = {};
  for (const s of summaries)
    for (const [status, count] of Object.entries(s.statusCounts))
      statusCounts[status] = (statusCounts[status] ?? 0) + count;
  return {
    requestsPerSecond: sum((s) => s.requestsPerSecond),
    completed: sum((s) => s.completed),
    ok: sum((s) => s.ok),
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    statusCounts,
    latencyMs: {
      mean:
        sum((s) => s.latencyMs.mean * s.completed) /
        Math.max(
          1,
          sum((s) => s.completed),
        ),
      p50: worst((s) => s.latencyMs.p50),
      p90: worst((s) => s.latencyMs.p90),
      p99: worst((s) => s.latencyMs.p99),
      p999: worst((s) => s.latencyMs.p999),
      max: worst((s) => s.latencyMs.max),
    },
    durationSeconds: worst((s) => s.durationSeconds),
  };
}
