// Real `vidrows` child processes for tests: servers to start, wait for and kill; CLI commands to run.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { workWaitMs } from "./time-budgets.js";

/** The built CLI; `npm test` builds before vitest runs. */
export const cliPath = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

// Children run in an empty folder of their own, so a developer's `.env` in the checkout cannot leak in.
const childCwd = mkdtempSync(join(tmpdir(), "vidrows-cwd-"));

// Settings the children must get only from the test, never from the environment the tests run in.
// VIDROWS_SQLITE_DRIVER alone goes through: the suites run on the SQLite driver it names, children too.
const settingNames = /^(DATABASE_URL|HOST|PORT|LOG_LEVEL|VIDROWS_(?!SQLITE_DRIVER$).*)$/;

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!settingNames.test(name)) base[name] = value;
  }
  return { ...base, ...env };
}

const live = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** How a child process ended: its exit code, or the signal that ended it. */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * Asks a child to stop (`signal`, SIGTERM by default), and kills it (SIGKILL) if it has not gone after
 * `graceMs`; answers how it ended, so a test can tell a clean stop (code 0) from an abort or a kill.
 */
async function terminate(
  child: ChildProcess,
  graceMs = 5000,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<ProcessEnd> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited(child);
    clearTimeout(timer);
  }
  return { code: child.exitCode, signal: child.signalCode };
}

/** Ends every child still running; call from `afterEach`/`afterAll` so a failed test leaves none behind. */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...live].map((child) => terminate(child, 2000)));
}

// Last resort, should the test process end without its hooks running; and the empty folder goes.
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
  rmSync(childCwd, { recursive: true, force: true });
});

export interface CliResult {
  /** Exit code, or null when a signal ended the process. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `vidrows <args>` to its end with `env` (on top of a clean environment); kills it after `timeoutMs`. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = workWaitMs,
): Promise<CliResult> {
  const child = track(
    spawn(process.execPath, [cliPath, ...args], { cwd: childCwd, env: childEnv(env), stdio: "pipe" }),
  );
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => resolve(exitCode));
  });
  clearTimeout(timer);
  if (child.signalCode === "SIGKILL") {
    throw new Error(`vidrows ${args.join(" ")} did not finish in ${timeoutMs} ms.\n${stdout}\n${stderr}`);
  }
  return { code, stdout, stderr };
}

export interface ServerProcess {
  /** Base URL, e.g. `http://127.0.0.1:41297`. */
  readonly url: string;
  readonly pid: number;
  /** Everything the process printed to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** The API key of a `default` workspace the process printed on its first start, if it printed one. */
  printedKey(): string | null;
  /** SIGTERM, then SIGKILL if it does not stop in time. */
  stop(): Promise<void>;
  /** Sends `signal` (SIGTERM, SIGINT), then SIGKILL if it does not stop in time; answers how it ended. */
  stopWith(signal: NodeJS.Signals): Promise<ProcessEnd>;
  /** SIGKILL (a crash), resolving once the process is gone. */
  kill(): Promise<void>;
}

export interface ServerOptions {
  /** The database, as a DATABASE_URL value. */
  readonly databaseUrl: string;
  /** More settings, e.g. VIDROWS_PLANS. */
  readonly env?: Record<string, string>;
  readonly timeoutMs?: number;
  /** Servers only: also run the worker and webhook dispatcher in the process (plain `serve`). */
  readonly withWorker?: boolean;
  /**
   * A command that sets something up and then execs the rest of its arguments (`node cli.js serve`), keeping
   * the process id: the server runs inside it (private-hosts.ts: a hosts file of the test's own).
   */
  readonly launcher?: readonly string[];
}

/** A child whose readiness is a log line: its streams so far, and the value read off that line. */
interface ReadyChild<T> {
  readonly child: ChildProcess;
  readonly ready: T;
  stdout(): string;
  stderr(): string;
}

/**
 * Spawns `vidrows <args>` and answers once `readyValue` finds what it waits for in a line of its
 * stdout; rejects (having killed it) if it exits first or is not ready within `timeoutMs`.
 */
async function spawnUntilReady<T>(
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
  readyValue: (line: string) => T | null,
  launcher: readonly string[] = [],
): Promise<ReadyChild<T>> {
  const command = [...launcher, process.execPath, cliPath, ...args];
  const child = track(
    spawn(command[0]!, command.slice(1), { cwd: childCwd, env: childEnv(env), stdio: "pipe" }),
  );
  let stdout = "";
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const name = `vidrows ${args.join(" ")}`;
  const ready = await new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      child.off("exit", onExit);
    };
    const fail = (why: string) => {
      if (settled) return;
      settle();
      void terminate(child, 1000);
      reject(new Error(`${name} ${why}.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(`exited (code ${code}, signal ${signal}) before it was ready`);
    const timer = setTimeout(() => fail(`was not ready after ${timeoutMs} ms`), timeoutMs);
    child.once("error", (error) => fail(`could not be spawned: ${error.message}`));
    child.on("exit", onExit);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (settled) return;
      const value = stdout
        .split("\n")
        .map(readyValue)
        .find((v) => v !== null);
      if (value !== undefined && value !== null) {
        settle();
        resolve(value);
      }
    });
  });
  return { child, ready, stdout: () => stdout, stderr: () => stderr };
}

/** The field `field` of the pino line whose message is `msg`, or null for any other line. */
function logField(line: string, msg: string, field: string): string | null {
  if (!line.startsWith("{")) return null;
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    const value = entry[field];
    return entry.msg === msg && typeof value === "string" ? value : null;
  } catch {
    // A line cut in half by a chunk boundary; the whole line comes with the next chunk.
    return null;
  }
}

/**
 * Starts `vidrows serve --no-worker` (or `serve`, with `withWorker`) on a random port and answers once
 * it says where it listens; rejects (having killed it) if it exits first or is not listening in time.
 */
export async function startServerProcess(options: ServerOptions): Promise<ServerProcess> {
  const env = {
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    ...options.env,
    DATABASE_URL: options.databaseUrl,
  };
  const args = options.withWorker ? ["serve"] : ["serve", "--no-worker"];
  const started = await spawnUntilReady(
    args,
    env,
    options.timeoutMs ?? workWaitMs,
    (line) => logField(line, "vidrows is listening", "address"),
    options.launcher,
  );
  return {
    url: started.ready,
    pid: started.child.pid ?? -1,
    stdout: started.stdout,
    stderr: started.stderr,
    printedKey: () => /\bvr_live_[0-9A-Za-z]{32}\b/.exec(started.stdout())?.[0] ?? null,
    stop: async () => {
      await terminate(started.child);
    },
    stopWith: (signal) => terminate(started.child, 5000, signal),
    kill: () => {
      const gone = exited(started.child);
      started.child.kill("SIGKILL");
      return gone;
    },
  };
}

export interface WorkerProcess {
  readonly pid: number;
  /** The worker id the process logged (`wrk_...`); videos it holds carry it as `lease_owner`. */
  readonly workerId: string;
  stdout(): string;
  stderr(): string;
  /** Sends `signal` (SIGKILL: a crash; SIGTERM: a stop request) without waiting. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves when the process has ended, with how it ended; rejects if that takes over `timeoutMs`. */
  exited(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL if it does not stop in time. */
  stop(): Promise<void>;
}

/**
 * Starts `vidrows worker` with `env` (the database, captions and model settings) and answers once it
 * says it is running; rejects (having killed it) if it exits first or is not running within the timeout.
 */
export async function startWorkerProcess(options: ServerOptions): Promise<WorkerProcess> {
  const env = { LOG_LEVEL: "info", ...options.env, DATABASE_URL: options.databaseUrl };
  const started = await spawnUntilReady(["worker"], env, options.timeoutMs ?? workWaitMs, (line) =>
    logField(line, "vidrows worker is running", "worker"),
  );
  const { child, ready: workerId, stdout, stderr } = started;
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else child.once("exit", (code, signal) => resolve({ code, signal }));
  });

  return {
    pid: child.pid ?? -1,
    workerId,
    stdout,
    stderr,
    signal: (signal) => {
      child.kill(signal);
    },
    async exited(waitMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`vidrows worker ${workerId} had not exited after ${waitMs} ms`)),
          waitMs,
        );
      });
      try {
        return await Promise.race([ended, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    stop: async () => {
      await terminate(child);
    },
  };
}
