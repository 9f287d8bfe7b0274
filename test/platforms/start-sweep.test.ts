// A process that serves without a worker sweeps as it starts too: its listing runs (and a worker's caption and
// page runs) keep folders in the system's temporary folder, and those a killed process left, with what still
// runs in them, are removed and killed, whatever their kind; a running process's folders are left alone.
// The temporary folder is one of this test's own (TMPDIR), so no other run's folders are looked at.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects } from "../support/databases.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";
import { waitUntil } from "../support/waiting.js";

useWorkBudgets();

const sqlite = dialects.find((dialect) => dialect.name === "sqlite");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(sqlite?.skipReason !== null)("the sweep of a process serving without a worker", () => {
  const ownTemp = mkdtempSync(join(tmpdir(), "vidrows-start-sweep-"));
  const formerTemp = process.env.TMPDIR;
  let server: TestServer | undefined;
  let orphan: ChildProcess | undefined;
  let dead = 0;

  beforeAll(() => {
    process.env.TMPDIR = ownTemp;
    // A process that has ended: its folders are abandoned.
    dead = spawnSync(process.execPath, ["-e", ""]).pid;
  });

  afterAll(async () => {
    await server?.close();
    if (orphan?.pid !== undefined && isAlive(orphan.pid)) process.kill(orphan.pid, "SIGKILL");
    if (formerTemp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = formerTemp;
    rmSync(ownTemp, { recursive: true, force: true });
  });

  it("removes the listing, page and caption folders of a dead process, killing what runs inside", async () => {
    expect(tmpdir()).toBe(ownTemp);
    const abandoned = ["listing", "page", "captions", "audio"].map((kind) => {
      const folder = join(ownTemp, `vidrows-${kind}-${dead}-left`);
      mkdirSync(folder);
      return folder;
    });
    // What a killed process's yt-dlp would be: still running, working inside its folder, a group of its own.
    orphan = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      cwd: abandoned[0],
      detached: true,
      stdio: "ignore",
    });
    const orphanPid = orphan.pid as number;
    const own = join(ownTemp, `vidrows-listing-${process.pid}-mine`);
    mkdirSync(own);

    server = await startTestServer("sqlite");
    expect(server.app.worker).toBeUndefined();

    await waitUntil(
      "the abandoned folders removed",
      () => abandoned.every((folder) => !existsSync(folder)),
      workWaitMs,
    );
    await waitUntil(
      "what ran inside killed",
      () => orphan?.exitCode !== null || orphan?.signalCode !== null,
      workWaitMs,
    );
    expect(orphan.signalCode).toBe("SIGKILL");
    expect(isAlive(orphanPid)).toBe(false);
    expect(existsSync(own)).toBe(true);
    expect(
      readdirSync(ownTemp).filter((name) => name.startsWith("vidrows-") && name.includes(`-${dead}-`)),
    ).toEqual([]);
  });
});
