// Running the programs that talk to video sites (yt-dlp, and ffmpeg on what it downloaded) as child processes,
// never through a shell: output collected up to a cap, the whole process group killed when a run passes its
// time limit or the caller aborts. The one place vidrows starts a program.
import { spawn } from "node:child_process";
import { childEnvironment } from "./egress/child-environment.js";

/** The programs vidrows runs, by name. */
export type ProgramName = "yt-dlp" | "ffmpeg" | "ffprobe";

/** The setting that names each program's path. */
export const programSetting: Record<ProgramName, string> = {
  "yt-dlp": "VIDROWS_YTDLP_PATH",
  ffmpeg: "VIDROWS_FFMPEG_PATH",
  ffprobe: "VIDROWS_FFPROBE_PATH",
};

export interface ProgramRun {
  readonly program: ProgramName;
  /** The program's path, as found (see executables.ts). */
  readonly executable: string;
  readonly args: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The working folder: where --write-pages puts the pages it saves. */
  readonly cwd?: string;
  /** The most standard output kept (64 MB unless set); a video's info is a few MB with every format listed. */
  readonly maxStdoutBytes?: number;
  /** The egress guard's session the program's connections go through (its http_proxy and the like). */
  readonly proxyUrl?: string;
}

export interface ProgramOutput {
  /** null when the process was ended by a signal. */
  readonly exitCode: number | null;
  readonly stdout: string;
  /** The end of standard error (where yt-dlp and ffmpeg write their warnings and errors), at most 64 KB. */
  readonly stderr: string;
}

/** The executable could not be run at all; `code` is the operating system's reason (ENOENT, EACCES). */
export class ProgramNotRunnable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The run was stopped before it ended by itself: past its time limit, or its output past the cap. */
export class ProgramStopped extends Error {
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

/** Runs the program to the end and hands back what it printed; throws the caller's abort reason on abort. */
export function runProgram(run: ProgramRun): Promise<ProgramOutput> {
  run.signal?.throwIfAborted();
  const maxStdout = run.maxStdoutBytes ?? defaultMaxStdoutBytes;
  return new Promise<ProgramOutput>((resolve, reject) => {
    const child = spawn(run.executable, [...run.args], {
      shell: false,
      detached: true,
      cwd: run.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      // Python writes UTF-8 whatever the machine's locale; the info JSON and messages are read as UTF-8.
      // Never vidrows' own settings and secrets: only what the programs read themselves (childEnvironment).
      env: childEnvironment(process.env, run.proxyUrl, { PYTHONIOENCODING: "utf-8", PYTHONUTF8: "1" }),
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
      () =>
        stop(new ProgramStopped("timeout", `${run.program} did not finish within ${run.timeoutMs / 1000} s`)),
      run.timeoutMs,
    );
    const onAbort = () => stop(run.signal?.reason);
    run.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.byteLength;
      if (stdoutBytes > maxStdout) {
        stop(new ProgramStopped("too_large", `${run.program} printed more than ${maxStdout} bytes`));
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
        new ProgramNotRunnable(
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
