// Runs the client CLI in-process with captured output, as a terminal or not, with its own Ctrl-C.
import { runClientCli } from "../src/cli/run-client-cli.js";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly tty?: boolean;
  /** Stands in for Ctrl-C. */
  readonly interrupt?: AbortSignal;
  /** Called with each write to stderr (to act when the progress line appears). */
  readonly onStderr?: (text: string) => void;
}

/** `vidrows-client <argv>` against `baseUrl` with `key` in the environment. */
export async function runCli(
  baseUrl: string,
  key: string | undefined,
  argv: string[],
  options: CliOptions = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runClientCli(argv, {
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty },
    stderr: {
      write: (text: string) => {
        stderr += text;
        options.onStderr?.(text);
      },
      isTTY: options.tty,
    },
    env: { VIDROWS_BASE_URL: baseUrl, ...(key === undefined ? {} : { VIDROWS_API_KEY: key }) },
    interrupt: options.interrupt ?? new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/** The one JSON document a command printed on stdout. */
export function printed(run: CliRun): any {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
