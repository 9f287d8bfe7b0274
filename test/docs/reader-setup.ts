// What the documentation tests give a reader's commands: a folder that looks like the checkout, a clean
// environment, the README's server block started as a reader starts it, and a fake model that answers
// with rows drawn from the transcript it is sent.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakeModel,
  type FakeModelRequest,
  promptLines,
  spannedRowsReply,
  startFakeModel,
} from "../support/fake-model.js";
import { waitUntil } from "../support/waiting.js";

export const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

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
      const row =
        request.body?.response_format?.json_schema?.schema?.properties?.rows?.items?.properties?.row;
      const first = promptLines(request)[0];
      const columns = Object.keys(row?.properties ?? {});
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

export interface StartedServer {
  /** Where it listens, as it logged it. */
  readonly url: string;
  /** The API key the first start printed. */
  readonly key: string;
  output(): string;
  stop(): Promise<void>;
}

/** Runs `commands` in bash as a script (a reader's first terminal) until the server says where it listens. */
export async function startServerCommands(
  commands: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<StartedServer> {
  // Its own process group: npm, and the node it starts, end together.
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
    if (child.exitCode !== null || child.signalCode !== null) return;
    signal("SIGTERM");
    const timer = setTimeout(() => signal("SIGKILL"), 5000);
    await gone;
    clearTimeout(timer);
    signal("SIGKILL"); // anything of the group that outlived bash
  };
  try {
    const url = await waitUntil(
      "the server to say where it listens",
      () => {
        if (child.exitCode !== null)
          throw new Error(`The server's commands ended (${child.exitCode}):\n${output}`);
        return output
          .split("\n")
          .map(listeningAddress)
          .find((address) => address !== undefined);
      },
      timeoutMs,
    );
    const key = /\bvr_live_[0-9A-Za-z]{32}\b/.exec(output)?.[0];
    if (!key) throw new Error(`The first start printed no API key:\n${output}`);
    return { url, key, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
