// Real `vidrows` child processes for tests: servers to start, wait for and kill; CLI commands to run.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI; `npm test` builds before vitest runs. */
export const cliPath = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

// Children run in an empty folder of their own, so a developer's `.env` in the checkout cannot leak in.
const childCwd = mkdtempSync(join(tmpdir(), "vidrows-cwd-"));

// Settings the children must get only from the test, never from the environment the tests run in.
const settingNames = /^(DATABASE_URL|HOST|PORT|LOG_LEVEL|VIDROWS_.*)$/;

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

/** Asks a child to stop (SIGTERM), and kills it (SIGKILL) if it has not gone after `graceMs`. */
async function terminate(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited(child);
  clearTimeout(timer);
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
  timeoutMs = 30_000,
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
}

export interface ServerOptions {
  /** The database, as a DATABASE_URL value. */
  readonly databaseUrl: string;
  /** More settings, e.g. VIDROWS_PLANS. */
  readonly env?: Record<string, string>;
  readonly timeoutMs?: number;
}

/**
 * Starts `vidrows serve --no-worker` on a random port and answers once it says where it listens;
 * rejects (having killed it) if it exits first or is not listening within the timeout.
 */
export async function startServerProcess(options: ServerOptions): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const env = {
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    ...options.env,
    DATABASE_URL: options.databaseUrl,
  };
  const child = track(
    spawn(process.execPath, [cliPath, "serve", "--no-worker"], {
      cwd: childCwd,
      env: childEnv(env),
      stdio: "pipe",
    }),
  );
  let stdout = "";
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });

  const url = await new Promise<string>((resolve, reject) => {
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
      reject(new Error(`vidrows serve ${why}.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(`exited (code ${code}, signal ${signal}) before listening`);
    const timer = setTimeout(() => fail(`was not listening after ${timeoutMs} ms`), timeoutMs);
    child.once("error", (error) => fail(`could not be spawned: ${error.message}`));
    child.on("exit", onExit);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (settled) return;
      const address = stdout
        .split("\n")
        .map(listeningAddress)
        .find((a) => a !== null);
      if (address) {
        settle();
        resolve(address);
      }
    });
  });

  return {
    url,
    pid: child.pid ?? -1,
    stdout: () => stdout,
    stderr: () => stderr,
    printedKey: () => /\bvr_live_[0-9A-Za-z]{32}\b/.exec(stdout)?.[0] ?? null,
    stop: () => terminate(child),
  };
}

/** The `address` of pino's "vidrows is listening" line, or null for any other line. */
function listeningAddress(line: string): string | null {
  if (!line.startsWith("{")) return null;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; address?: unknown };
    return entry.msg === "vidrows is listening" && typeof entry.address === "string" ? entry.address : null;
  } catch {
    // A line cut in half by a chunk boundary; the whole line comes with the next chunk.
    return null;
  }
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
  const timeoutMs = options.timeoutMs ?? 30_000;
  const env = { LOG_LEVEL: "info", ...options.env, DATABASE_URL: options.databaseUrl };
  const child = track(
    spawn(process.execPath, [cliPath, "worker"], { cwd: childCwd, env: childEnv(env), stdio: "pipe" }),
  );
  let stdout = "";
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else child.once("exit", (code, signal) => resolve({ code, signal }));
  });

  const workerId = await new Promise<string>((resolve, reject) => {
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
      reject(new Error(`vidrows worker ${why}.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(`exited (code ${code}, signal ${signal}) before running`);
    const timer = setTimeout(() => fail(`was not running after ${timeoutMs} ms`), timeoutMs);
    child.once("error", (error) => fail(`could not be spawned: ${error.message}`));
    child.on("exit", onExit);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (settled) return;
      const id = stdout
        .split("\n")
        .map(runningWorkerId)
        .find((w) => w !== null);
      if (id) {
        settle();
        resolve(id);
      }
    });
  });

  return {
    pid: child.pid ?? -1,
    workerId,
    stdout: () => stdout,
    stderr: () => stderr,
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
    stop: () => terminate(child),
  };
}

/** The `worker` of pino's "vidrows worker is running" line, or null for any other line. */
function runningWorkerId(line: string): string | null {
  if (!line.startsWith("{")) return null;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; worker?: unknown };
    return entry.msg === "vidrows worker is running" && typeof entry.worker === "string"
      ? entry.worker
      : null;
  } catch {
    // A line cut in half by a chunk boundary; the whole line comes with the next chunk.
    return null;
  }
}
