// Runs one load (autocannon in a child process) against a server and samples the server's memory meanwhile.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cpuSecondsOf, memoryOf } from "./processes.js";

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
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
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
}

const clientPath = fileURLToPath(new URL("./load-client.js", import.meta.url));

function runClient(spec: LoadSpec): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [clientPath, JSON.stringify(spec)], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    // Autocannon stops itself after the duration; this only guards against a hang.
    const timer = setTimeout(() => child.kill("SIGKILL"), (spec.durationSeconds + 60) * 1000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").pop() ?? "";
      if (code !== 0 || !line.startsWith("{")) {
        reject(new Error(`the load client failed (exit ${code}):\n${stdout}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(line) as LoadSummary);
    });
  });
}

/** Loads `spec` on the server `serverPid`; with `warmupSeconds`, a short unrecorded run goes first. */
export async function measureLoad(
  spec: LoadSpec,
  serverPid: number,
  warmupSeconds = 0,
): Promise<MeasuredLoad> {
  if (warmupSeconds > 0) await runClient({ ...spec, durationSeconds: warmupSeconds });
  let peakRssMb = memoryOf(serverPid).rssMb;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, memoryOf(serverPid).rssMb);
  }, 100);
  try {
    const cpuBefore = cpuSecondsOf(serverPid);
    const summary = await runClient(spec);
    const cpuSeconds = cpuSecondsOf(serverPid) - cpuBefore;
    const memory = memoryOf(serverPid);
    return {
      ...summary,
      peakRssMb: Math.max(peakRssMb, memory.rssMb),
      highWaterRssMb: memory.highWaterMb,
      cpuMicrosPerRequest: (cpuSeconds * 1e6) / Math.max(1, summary.completed),
    };
  } finally {
    clearInterval(sampler);
  }
}
