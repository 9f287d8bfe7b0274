// What the documentation tests give a reader's commands: a folder that looks like the checkout, a clean
// environment, the README's server block started as a reader starts it, and a fake model that answers
// with rows drawn from the transcript it is sent.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  columnsAsked,
  type FakeModel,
  type FakeModelRequest,
  promptLines,
  spannedRowsReply,
  startFakeModel,
} from "../support/fake-model.js";
import { buildIsStale } from "../../scripts/build-if-stale.mjs";
import { waitUntil } from "../support/waiting.js";

export const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Throws unless the checkout's build is current. A reader's `npm start` builds a stale checkout itself,
 * but two suites doing so at once would build over each other, so these suites run against a build made
 * before them (`npm test` builds first).
 */
export function requireCurrentBuild(): void {
  if (buildIsStale(repositoryRoot)) {
    throw new Error("The sources changed after the last build: run `npm run build` first (npm test does).");
  }
}

/**
 * A folder where the checkout's files are (links to them), but whose own files are its own: the
 * `./data` a first start creates, and no developer's `.env`, which would otherwise leak into the run.
 * `npm start` and `npx` work there as in the checkout, whose built `dist/` they use.
 */
export function checkoutFolder(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "vidrows-reader-"));
  for (const entry of ["package.json", "package-lock.json", "bin", "scripts", "node_modules", "clients"]) {
    symlinkSync(join(repositoryRoot, entry), join(path, entry));
  }
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The environment the tests run in, without any vidrows or model setting: a reader's fresh shell. */
export function readerEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(DATABASE_URL|HOST|PORT|LOG_LEVEL|OPENAI_.*|VIDROWS_.*|npm_.*)$/.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

/** A fake OpenAI: each chunk gives one row, every column holding the chunk's first transcript line. */
export function startRowsModel(): Promise<FakeModel> {
  return startFakeModel({
    respond: (request: FakeModelRequest) => {
      const first = promptLines(request)[0];
      const columns = columnsAsked(request);
      return spannedRowsReply([
        {
          row: Object.fromEntries(columns.map((column) => [column, first?.text ?? ""])),
          first_line: 1,
          last_line: 1,
        },
      ]);
    },
  });
}

/** The address of the server's "vidrows is listening" log line, or undefined for any other line. */
function listeningAddress(line: string): string | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; address?: unknown };
    return entry.msg === "vidrows is listening" && typeof entry.address === "string"
      ? entry.address
      : undefined;
  } catch {
    return undefined; // a line still arriving
  }
}

export interface Background<T> {
  /** What the commands' readiness check answered. */
  readonly ready: T;
  /** Everything printed so far, standard output and error together. */
  output(): string;
  /** Ends the commands and everything they started. */
  stop(): Promise<void>;
}

/**
 * Runs `commands` in bash as a script, as a reader's terminal runs a server in the foreground, until
 * `ready` finds what it waits for in their output; stops them and throws when they end first or time runs out.
 */
export async function startInBackground<T>(
  commands: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: (output: string) => T | undefined,
  timeoutMs: number,
): Promise<Background<T>> {
  // Its own process group: npm or npx, and the node they start, end together.
  const child: ChildProcess = spawn("bash", ["-c", commands.join("\n")], {
    cwd,
    env,
    stdio: "pipe",
    detached: true,
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // Already gone.
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), 5000);
      await gone;
      clearTimeout(timer);
    }
    signal("SIGKILL"); // anything of the group that outlived bash
  };
  try {
    const value = await waitUntil(
      `${commands.join(" && ")} to be ready`,
      () => {
        if (child.exitCode !== null)
          throw new Error(`${commands.join(" && ")} ended (${child.exitCode}):\n${output}`);
        return ready(output);
      },
      timeoutMs,
    );
    return { ready: value, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface StartedServer {
  /** Where it listens, as it logged it. */
  readonly url: string;
  /** The API key the first start printed. */
  readonly key: string;
  output(): string;
  stop(): Promise<void>;
}

/** Runs a server block (a reader's first terminal) until the server says where it listens. */
export async function startServerCommands(
  commands: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<StartedServer> {
  const server = await startInBackground(
    commands,
    cwd,
    env,
    (output) =>
      output
        .split("\n")
        .map(listeningAddress)
        .find((address) => address !== undefined),
    timeoutMs,
  );
  const key = /\bvr_live_[0-9A-Za-z]{32}\b/.exec(server.output())?.[0];
  if (!key) {
    await server.stop();
    throw new Error(`The first start printed no API key:\n${server.output()}`);
  }
  return { url: server.ready, key, output: server.output, stop: server.stop };
}
