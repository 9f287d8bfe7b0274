// Nothing a worker started outlives it, even without a restart: a worker process (a real child) starts a
// download through runProgram (the built one, as a worker runs it), is killed with SIGKILL mid-download,
// and the download, with the helper it started in its process group, is gone soon after; the same with the
// real yt-dlp downloading an endless body from a local server. Where setpriv is missing (not Linux, an old
// util-linux) programs get no death signal and the suite is skipped, saying so (the sweep at start is the
// fallback: work-folders.test.ts). runProgram's ordinary results through the keeper are checked too.
import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deathSignalLauncher } from "../../src/platforms/death-signal.js";
import { locateProgram } from "../../src/platforms/executables.js";
import { ProgramNotRunnable, runProgram } from "../../src/platforms/programs.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";
import { waitUntil } from "../support/waiting.js";

useWorkBudgets();

const setpriv = deathSignalLauncher();
if (setpriv === null) {
  console.warn(
    "test/platforms/death-signal.test.ts: the SIGKILL tests are skipped: no setpriv taking --pdeathsig (util-linux 2.33 or later, Linux only).",
  );
}
const ytDlp = locateProgram("yt-dlp", undefined);
if (ytDlp === null)
  console.warn("test/platforms/death-signal.test.ts: the yt-dlp test is skipped: no yt-dlp on PATH.");

/** The built runProgram: `npm test` builds before vitest runs, and a worker runs the built code. */
const builtPrograms = new URL("../../dist/platforms/programs.js", import.meta.url).href;

// The worker: starts `executable args...` through runProgram, says so, and waits to be killed.
const worker = `
const { runProgram } = await import(process.argv[1]);
const [folder, executable, ...args] = process.argv.slice(2);
runProgram({ program: "yt-dlp", executable, args, timeoutMs: 600000, cwd: folder }).catch(() => {});
process.stdout.write("started\\n");
setInterval(() => {}, 1000);
`;

// The download: starts a helper in its own process group (not detached), writes both pids, then writes on.
const download = (node: string) => `#!${node}
const fs = require("node:fs");
const { spawn } = require("node:child_process");
const out = process.argv[2];
const helper = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
fs.writeFileSync(out + ".pids", process.pid + " " + helper.pid);
setInterval(() => fs.appendFileSync(out, Buffer.alloc(16 * 1024)), 20);
`;

/** Gone: no such process, or a zombie waiting to be reaped (it runs no more). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** The running processes whose command line names `text`. */
function processesNaming(text: string): number[] {
  const entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  return entries
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text) && !isGone(Number(pid));
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(setpriv === null)("a worker killed with SIGKILL mid-download", () => {
  const root = mkdtempSync(join(tmpdir(), "vidrows-death-signal-"));
  const workers: ChildProcess[] = [];
  const started: number[] = [];
  let endless: Server;
  let port = 0;

  beforeAll(async () => {
    endless = createServer((request, response) => {
      response.writeHead(200, { "content-type": "audio/mpeg" });
      const timer = setInterval(() => response.write(Buffer.alloc(16 * 1024, 0xff)), 20);
      response.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    port = (endless.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const child of workers) child.kill("SIGKILL");
    for (const pid of started) {
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // Gone, as it should be.
        }
      }
    }
    endless?.closeAllConnections();
    await new Promise<void>((resolve) => (endless ? endless.close(() => resolve()) : resolve()));
    rmSync(root, { recursive: true, force: true });
  });

  /** Starts a worker running `executable args` in `folder`, once it says the run has started. */
  async function startWorker(folder: string, executable: string, args: string[]): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "-e", worker, builtPrograms, folder, executable, ...args],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    workers.push(child);
    let said = "";
    child.stdout?.setEncoding("utf8").on("data", (text: string) => (said += text));
    await waitUntil("the worker's run to start", () => said.includes("started"), workWaitMs);
    return child;
  }

  async function killWorker(child: ChildProcess): Promise<void> {
    child.kill("SIGKILL");
    await waitUntil(
      "the worker's death",
      () => child.exitCode !== null || child.signalCode !== null,
      workWaitMs,
    );
  }

  it("takes the download and the helper it started with it", async () => {
    const folder = mkdtempSync(join(root, "fake-"));
    const program = join(folder, "downloader");
    writeFileSync(program, download(process.execPath));
    chmodSync(program, 0o755);
    const out = join(folder, "audio.m4a");
    const child = await startWorker(folder, program, [out]);
    const pids = await waitUntil(
      "the download's pids",
      () => existsSync(`${out}.pids`) && readFileSync(`${out}.pids`, "utf8"),
      workWaitMs,
    );
    const [downloader, helper] = pids.split(" ").map(Number) as [number, number];
    started.push(downloader, helper);
    await waitUntil("the download's first bytes", () => existsSync(out), workWaitMs);

    await killWorker(child);
    await waitUntil(
      "the download and its helper gone",
      () => isGone(downloader) && isGone(helper),
      workWaitMs,
    );
    expect(processesNaming(folder)).toEqual([]);
  });

  it.skipIf(ytDlp === null)("takes the real yt-dlp downloading an endless body with it", async () => {
    const folder = mkdtempSync(join(root, "yt-dlp-"));
    const args = [
      "--no-part",
      "--no-progress",
      "-o",
      join(folder, "audio.%(ext)s"),
      "--",
      `http://127.0.0.1:${port}/a.mp3`,
    ];
    const child = await startWorker(folder, ytDlp ?? "", args);
    await waitUntil(
      "yt-dlp's first bytes",
      () => readdirSync(folder).some((name) => name.startsWith("audio.")),
      workWaitMs,
    );
    const running = processesNaming(folder);
    expect(running.length).toBeGreaterThan(0);
    started.push(...running);

    await killWorker(child);
    await waitUntil("yt-dlp gone", () => processesNaming(folder).length === 0, workWaitMs);
  });
});

describe("runProgram through the keeper", () => {
  const node = process.execPath;

  it("hands back the program's output, error output and exit code as they were", async () => {
    const output = await runProgram({
      program: "ffmpeg",
      executable: node,
      args: ["-e", "process.stdout.write('out \"$1\" *'); process.stderr.write('err'); process.exit(3)"],
      timeoutMs: workWaitMs,
    });
    expect(output).toEqual({ exitCode: 3, stdout: 'out "$1" *', stderr: "err" });
  });

  it("passes arguments a shell would read untouched", async () => {
    const tricky = ["$(touch /tmp/x)", "a b", "'q'", "`id`", ";", "*", "$HOME", ""];
    const output = await runProgram({
      program: "ffmpeg",
      executable: node,
      args: ["-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))", ...tricky],
      timeoutMs: workWaitMs,
    });
    expect(JSON.parse(output.stdout)).toEqual(tricky);
  });

  it("says a missing program could not be run, as spawning does", async () => {
    const missing = join(tmpdir(), "vidrows-no-such-program");
    const error = await runProgram({
      program: "yt-dlp",
      executable: missing,
      args: [],
      timeoutMs: 1000,
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProgramNotRunnable);
    expect((error as ProgramNotRunnable).code).toBe("ENOENT");
  });

  it("kills what a program left running in its group when it ends by itself", async () => {
    const folder = mkdtempSync(join(tmpdir(), "vidrows-leftover-"));
    try {
      const pidFile = join(folder, "helper.pid");
      await runProgram({
        program: "ffmpeg",
        executable: node,
        args: [
          "-e",
          `const { spawn } = require("node:child_process"); const h = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", ${JSON.stringify(folder)}], { stdio: "ignore" }); h.unref(); require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(h.pid));`,
        ],
        timeoutMs: workWaitMs,
      });
      const helper = Number(readFileSync(pidFile, "utf8"));
      started.push(helper);
      await waitUntil("the helper left behind gone", () => isGone(helper), workWaitMs);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  const started: number[] = [];
  afterAll(() => {
    for (const pid of started) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone.
      }
    }
  });

  it.skipIf(!existsSync("/usr/bin/setpriv") || process.platform !== "linux")(
    "finds setpriv where util-linux is installed (Debian's /usr/bin/setpriv)",
    () => {
      expect(setpriv).not.toBeNull();
    },
  );
});
