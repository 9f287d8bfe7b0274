// Nothing a killed worker started outlives it: a worker process (a real child) starts a slow download in a
// work folder of its own, as runProgram does (a detached process group: the download and a helper it
// started), and is killed with SIGKILL mid-download; the download goes on writing. The sweep a restarted
// worker runs at start kills what still runs inside the abandoned folder, then frees its space.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sweepAbandonedWorkFolders } from "../../src/platforms/work-folders.js";
import { workWaitMs, useWorkBudgets } from "../support/time-budgets.js";
import { waitUntil } from "../support/waiting.js";

useWorkBudgets();

// The worker: makes its folder as newWorkFolder does, starts the "download" detached (a group of its own)
// with the output file inside the folder on its command line, and its helper in the same group with the
// folder as its working folder, then waits to be killed.
const worker = `
const fs = require("node:fs");
const path = require("node:path");
const { spawn } = require("node:child_process");
const root = process.argv[1];
const folder = fs.mkdtempSync(path.join(root, "vidrows-audio-" + process.pid + "-"));
const download = \`
  const fs = require("node:fs");
  const { spawn } = require("node:child_process");
  const out = process.argv[1];
  const helper = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { cwd: require("node:path").dirname(out), stdio: "ignore" });
  fs.writeFileSync(out + ".pids", process.pid + " " + helper.pid);
  setInterval(() => fs.appendFileSync(out, Buffer.alloc(64 * 1024)), 20);
\`;
const child = spawn(process.execPath, ["-e", download, path.join(folder, "audio.m4a")], { detached: true, stdio: "ignore" });
child.unref();
process.stdout.write(folder + "\\n");
setInterval(() => {}, 1000);
`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("The sweep at start", () => {
  const root = mkdtempSync(join(tmpdir(), "vidrows-sweep-"));
  const started: number[] = [];
  afterAll(() => {
    for (const pid of started) {
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, "SIGKILL");
        } catch {
          // Gone, as it should be.
        }
      }
    }
    rmSync(root, { recursive: true, force: true });
  });

  it("kills the download a SIGKILLed worker left running in its folder, and frees the space", async () => {
    const killed = spawn(process.execPath, ["-e", worker, root], { stdio: ["ignore", "pipe", "inherit"] });
    let said = "";
    killed.stdout.setEncoding("utf8").on("data", (text: string) => {
      said += text;
    });
    const folder = await waitUntil(
      "the worker's folder",
      () => said.includes("\n") && said.trim(),
      workWaitMs,
    );
    const pidsFile = join(folder, "audio.m4a.pids");
    const [download, helper] = (
      await waitUntil(
        "the download's pids",
        () => existsSync(pidsFile) && readFileSync(pidsFile, "utf8"),
        workWaitMs,
      )
    )
      .split(" ")
      .map(Number) as [number, number];
    started.push(download, helper);
    // The download writes its pids before its first bytes: on a busy machine the file can still be missing.
    const audio = join(folder, "audio.m4a");
    await waitUntil("the download's first bytes", () => existsSync(audio), workWaitMs);

    killed.kill("SIGKILL");
    await waitUntil(
      "the worker's death",
      () => killed.exitCode !== null || killed.signalCode !== null,
      workWaitMs,
    );
    // Orphaned, the download goes on writing.
    const before = statSync(audio).size;
    await waitUntil("the orphan writing on", () => statSync(audio).size > before, workWaitMs);
    expect(isAlive(download) && isAlive(helper)).toBe(true);

    expect(await sweepAbandonedWorkFolders(root)).toBe(1);
    await waitUntil(
      "the download and its helper gone",
      () => !isAlive(download) && !isAlive(helper),
      workWaitMs,
    );
    expect(readdirSync(root)).toEqual([]);
  });

  it("leaves the folders of running processes, this one's included, and what runs in them", async () => {
    const own = mkdtempSync(join(root, `vidrows-captions-${process.pid}-`));
    expect(await sweepAbandonedWorkFolders(root)).toBe(0);
    expect(existsSync(own)).toBe(true);
  });
});
