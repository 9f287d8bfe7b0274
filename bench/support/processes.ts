// Child processes of the benchmark: the real `vidrows` server and worker, the bare server, and their memory.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LoopDelayProbe, loopDelayPreloadPath, loopDelayProbe } from "./loop-delay.js";
import { memoryPreloadPath } from "../soak/memory-probe.js";

export const cliPath = fileURLToPath(new URL("../../../cli.js", import.meta.url));
const bareServerPath = fileURLToPath(new URL("../http/bare-server.js", import.meta.url));

// Children run in an empty folder, so a `.env` in the checkout cannot change what is measured.
const childCwd = mkdtempSync(join(tmpdir(), "vidrows-bench-cwd-"));
// VIDROWS_SQLITE_DRIVER alone goes through: it is how two runs compare the SQLite drivers on one Node.js.
const settingNames = /^(DATABASE_URL|HOST|PORT|LOG_LEVEL|OPENAI_.*|VIDROWS_(?!SQLITE_DRIVER$).*)$/;

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
  rmSync(childCwd, { recursive: true, force: true });
});

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!settingNames.test(name)) base[name] = value;
  }
  return { ...base, ...env };
}

export interface Memory {
  /** Resident memory now, MB. */
  rssMb: number;
  /** The most resident memory the process has held since it started, MB. */
  highWaterMb: number;
  /** Of the resident memory, anonymous pages (heaps, SQLite's page cache), MB. */
  anonMb: number;
  /** Of the resident memory, pages of mapped files (the program, SQLite's memory-mapped reads), MB. */
  fileMb: number;
}

/** The process's memory from /proc/<pid>/status (Linux); zeros where that cannot be read. */
export function memoryOf(pid: number): Memory {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
    return {
      rssMb: kb("VmRSS") / 1024,
      highWaterMb: kb("VmHWM") / 1024,
      anonMb: kb("RssAnon") / 1024,
      fileMb: kb("RssFile") / 1024,
    };
  } catch {
    return { rssMb: 0, highWaterMb: 0, anonMb: 0, fileMb: 0 };
  }
}

// Clock ticks per second of /proc/<pid>/stat: 100 on every Linux this runs on (USER_HZ).
const ticksPerSecond = 100;

/** CPU time the process has used so far, in seconds, in its own code and in the kernel; zeros where /proc cannot be read. */
export function cpuTimesOf(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { user: Number(fields[11]) / ticksPerSecond, system: Number(fields[12]) / ticksPerSecond };
  } catch {
    return { user: 0, system: 0 };
  }
}

/**
 * Times the process was taken off the CPU while it could still run (its time slice given to another
 * process, such as a PostgreSQL backend it had just woken), from /proc/<pid>/status; 0 where unreadable.
 */
export function preemptionsOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU time (user + system) the process has used so far, in seconds; 0 where /proc cannot be read. */
export function cpuSecondsOf(pid: number): number {
  const { user, system } = cpuTimesOf(pid);
  return user + system;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

export interface Child {
  readonly pid: number;
  readonly process: ChildProcess;
  /** The child's event-loop delay (support/loop-delay.ts), when it was started watching it. */
  readonly loopDelay?: LoopDelayProbe;
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  readonly env?: Record<string, string>;
  /** Where `--cpu-prof` writes the process's CPU profile; no profiling without it. */
  readonly cpuProfileDir?: string;
  readonly name: string;
  /** Watch the child's event-loop delay (a preload and an IPC channel; see support/loop-delay.ts). */
  readonly loopDelay?: boolean;
  /** Answer `process.memoryUsage()` when asked (an IPC channel and soak/memory-preload.ts). */
  readonly memoryProbe?: boolean;
}

export function spawnNode(script: string, args: string[], options: SpawnOptions): Child {
  // BENCH_PROFILE_INTERVAL_US samples finer than Node's 1 ms, to see which stretches hold the loop.
  const interval = process.env.BENCH_PROFILE_INTERVAL_US;
  const nodeArgs = options.cpuProfileDir
    ? [
        "--cpu-prof",
        `--cpu-prof-dir=${options.cpuProfileDir}`,
        `--cpu-prof-name=${options.name}.cpuprofile`,
        ...(interval && /^\d+$/.test(interval) ? [`--cpu-prof-interval=${interval}`] : []),
      ]
    : [];
  const watchArgs = [
    ...(options.loopDelay ? [`--import=${loopDelayPreloadPath}`] : []),
    ...(options.memoryProbe ? [`--import=${memoryPreloadPath}`] : []),
  ];
  const child = spawn(process.execPath, [...nodeArgs, ...watchArgs, script, ...args], {
    cwd: childCwd,
    env: childEnv({
      ...options.env,
      ...(options.loopDelay && { BENCH_LOOP_DELAY: "1" }),
      ...(options.memoryProbe && { BENCH_MEMORY: "1" }),
    }),
    stdio:
      options.loopDelay || options.memoryProbe
        ? ["ignore", "pipe", "pipe", "ipc"]
        : ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  child.once("exit", () => live.delete(child));
  // Kept short: a chatty child must never block on a full pipe, and only the tail matters for errors.
  let output = "";
  const keep = (chunk: string) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout?.setEncoding("utf8").on("data", keep);
  child.stderr?.setEncoding("utf8").on("data", keep);
  const gone = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    child.once("exit", () => resolve());
  });
  return {
    pid: child.pid ?? -1,
    process: child,
    ...(options.loopDelay && { loopDelay: loopDelayProbe(child) }),
    output: () => output,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** Waits until `url` answers anything over HTTP; throws with the child's output if it exits or takes too long. */
export async function waitForHttp(child: Child, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null) {
      throw new Error(`${url}: the server exited (${child.process.exitCode}):\n${child.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      // Read whole: an unread body keeps the response in flight, and the server's close waits for it.
      await response.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`${url} was not answering after ${timeoutMs} ms:\n${child.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export interface ServerChild extends Child {
  readonly url: string;
  /** From spawning to answering: what a profile of the process spends on start-up, about. */
  readonly readyAfterMs: number;
}

/** `vidrows serve --no-worker` on a free port. */
export async function startVidrowsServer(
  env: Record<string, string>,
  options: { cpuProfileDir?: string; name: string; loopDelay?: boolean; memoryProbe?: boolean },
): Promise<ServerChild> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const child = spawnNode(cliPath, ["serve", "--no-worker"], {
    ...options,
    env: { HOST: "127.0.0.1", PORT: String(port), ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${url}/v1/openapi.json`);
  return { ...child, url, readyAfterMs: Date.now() - spawnedAt };
}

/** The hello-world Fastify server the real one is compared with. */
export async function startBareServer(
  options: { cpuProfileDir?: string; loopDelay?: boolean } = {},
): Promise<ServerChild> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const child = spawnNode(bareServerPath, [String(port)], { ...options, name: "bare" });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, url);
  return { ...child, url, readyAfterMs: Date.now() - spawnedAt };
}

/** `vidrows worker`; answers once it has said it runs. */
export async function startVidrowsWorker(
  env: Record<string, string>,
  options: { cpuProfileDir?: string; name: string },
) {
  const child = spawnNode(cliPath, ["worker"], { ...options, env: { LOG_LEVEL: "info", ...env } });
  const deadline = Date.now() + 60_000;
  while (!child.output().includes("vidrows worker is running")) {
    if (child.process.exitCode !== null) throw new Error(`vidrows worker exited:\n${child.output()}`);
    if (Date.now() > deadline) throw new Error(`vidrows worker did not start:\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return child;
}
