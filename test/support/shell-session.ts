// A bash session driven as a person at a terminal drives one: commands typed one after another, each
// waited for, with what it printed and its exit code; exports carry over from one command to the next.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { waitUntil } from "./waiting.js";

export interface CommandResult {
  readonly command: string;
  /** Standard output and standard error together, in the order they were written. */
  readonly output: string;
  readonly code: number;
}

export class ShellSession {
  private readonly child: ChildProcess;
  private output = "";

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    // Its own process group, so that closing the session ends whatever a command left running.
    this.child = spawn("bash", ["--noprofile", "--norc"], { cwd, env, stdio: "pipe", detached: true });
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (this.output += chunk));
    this.child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (this.output += chunk));
    this.child.stdin?.write("exec 2>&1\n"); // one stream, so that errors stay beside what led to them
  }

  /** Runs `command` and waits (at most `timeoutMs`) for it to end. */
  async run(command: string, timeoutMs: number): Promise<CommandResult> {
    const marker = `__done_${randomUUID()}__`;
    const from = this.output.length;
    this.child.stdin?.write(`${command}\necho "${marker}$?"\n`);
    const end = await waitUntil(
      `"${command}" to finish; it printed: ${this.output.slice(from)}`,
      () => {
        const at = this.output.indexOf(marker, from);
        return at === -1 ? undefined : at;
      },
      timeoutMs,
    );
    const code = Number(/^\d+/.exec(this.output.slice(end + marker.length))?.[0]);
    return { command, output: this.output.slice(from, end), code };
  }

  /** Ends the shell and everything it started. */
  close(): void {
    if (this.child.pid === undefined || this.child.exitCode !== null) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
