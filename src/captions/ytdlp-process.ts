// Running the yt-dlp executable as a child process, never through a shell: its output collected up to a cap,
// and the whole process group killed when it runs past its time limit or the caller aborts.
import { spawn } from "node:child_process";

export interface YtDlpRun {
  readonly executable: string;
  readonly args: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The working folder: where --write-pages puts the pages it saves. */
  readonly cwd?: string;
  /** The most standard output kept; a video's info is a few MB with every format listed. */
  readonly maxStdoutBytes?: number;
}

export interface YtDlpOutput {
  /** null when the process was ended by a signal. */
  readonly exitCode: number | null;
  readonly stdout: string;
  /** The end of standard error (where yt-dlp writes its warnings and errors), at most 64 KB. */
  readonly stderr: string;
}

/** The executable could not be run at all; `code` is the operating system's reason (ENOENT, EACCES). */
export class YtDlpNotRunnable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The run was stopped before it ended by itself: past its time limit, or its output past the cap. */
export class YtDlpStopped extends Error {
  constructor(
    readonly reason: "timeout" | "too_large",
    message: string,
  ) {
    super(message);
  }
}

const defaultMaxStdoutBytes = 64 * 1024 * 1024;
const maxStderrChars = 64 * 1024;

/**
 * Kills the child and everything it started (yt-dlp may run a JavaScript runtime for YouTube's
 * challenges): the child leads its own process group, so one signal to the group reaches them all.
 */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Runs yt-dlp to the end and hands back what it printed; throws the caller's abort reason on abort. */
export function runYtDlp(run: YtDlpRun): Promise<YtDlpOutput> {
  run.signal?.throwIfAborted();
  const maxStdout = run.maxStdoutBytes ?? defaultMaxStdoutBytes;
  return new Promise<YtDlpOutput>((resolve, reject) => {
    const child = spawn(run.executable, [...run.args], {
      shell: false,
      detached: true,
      cwd: run.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      // Python writes UTF-8 whatever the machine's locale; the info JSON and messages are read as UTF-8.
      env: { ...process.env, PYTHONIOENCODING: "utf-8", PYTHONUTF8: "1" },
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    // Why the run was cut short, once decided; the promise settles only when the child has exited.
    let stopped: unknown = null;

    const stop = (why: unknown) => {
      if (stopped === null) stopped = why;
      killGroup(child.pid);
    };
    const timer = setTimeout(
      () => stop(new YtDlpStopped("timeout", `yt-dlp did not finish within ${run.timeoutMs / 1000} s`)),
      run.timeoutMs,
    );
    const onAbort = () => stop(run.signal?.reason);
    run.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.byteLength;
      if (stdoutBytes > maxStdout) {
        stop(new YtDlpStopped("too_large", `yt-dlp printed more than ${maxStdout} bytes`));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      stderr = (stderr + text).slice(-maxStderrChars);
    });

    const finish = () => {
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", onAbort);
    };
    child.on("error", (error: NodeJS.ErrnoException) => {
      finish();
      if (stopped !== null) {
        reject(stopped);
        return;
      }
      // No process was started (spawn's own failure), so there is nothing to wait for.
      reject(
        new YtDlpNotRunnable(
          error.code ?? "unknown",
          `${run.executable} could not be run (${error.code ?? error.message})`,
        ),
      );
    });
    child.on("exit", () => {
      if (stopped === null) return;
      // Killed: settle now rather than wait for pipes that an escaped grandchild might still hold open.
      finish();
      child.stdout.destroy();
      child.stderr.destroy();
      reject(stopped);
    });
    child.on("close", (exitCode) => {
      finish();
      if (stopped !== null) {
        reject(stopped);
        return;
      }
      resolve({ exitCode, stdout: Buffer.concat(stdout).toString("utf8"), stderr });
    });
  });
}
