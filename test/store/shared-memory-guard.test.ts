// The guard that fences a SQLite store off its -shm file while that file cannot be written.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fencedStoreError, SharedMemoryGuard } from "../../src/store/sqlite/shared-memory-guard.js";
import { isDatabaseUnavailable } from "../../src/store/errors.js";

const folders: string[] = [];
const guards: SharedMemoryGuard[] = [];
afterEach(() => {
  for (const guard of guards.splice(0)) guard.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function watched(): { path: string; guard: SharedMemoryGuard; changes: (string | null)[] } {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-guard-"));
  folders.push(folder);
  const path = join(folder, "x.db-shm");
  const changes: (string | null)[] = [];
  const guard = new SharedMemoryGuard(path, (reason) => changes.push(reason), 60_000);
  guards.push(guard);
  return { path, guard, changes };
}

describe("SharedMemoryGuard", () => {
  it("lets SQLite run while the file does not exist yet, and while it is writable", () => {
    const { path, guard, changes } = watched();
    expect(guard.fencedNow()).toBeNull();
    writeFileSync(path, Buffer.alloc(32_768));
    guard.check();
    expect(guard.fencedBecause).toBeNull();
    expect(changes).toEqual([]);
  });

  it("fences for good once the file shrinks under the process", () => {
    const { path, guard, changes } = watched();
    writeFileSync(path, Buffer.alloc(32_768));
    guard.check();
    truncateSync(path, 0);
    guard.check();
    expect(guard.fencedBecause).toMatch(/shrank from 32768 to 0 bytes.*restart/);
    writeFileSync(path, Buffer.alloc(65_536));
    guard.check();
    expect(guard.fencedBecause).toMatch(/shrank/);
    expect(changes).toHaveLength(1);
  });

  it.skipIf(process.getuid?.() !== 0)("fences while the file is immutable, and lifts the fence after", () => {
    const { path, guard, changes } = watched();
    writeFileSync(path, Buffer.alloc(32_768));
    execFileSync("chattr", ["+i", path]);
    try {
      guard.check();
      expect(guard.fencedBecause).toMatch(/cannot be written \(EPERM\)/);
    } finally {
      execFileSync("chattr", ["-i", path]);
    }
    guard.check();
    expect(guard.fencedBecause).toBeNull();
    expect(changes.map((c) => c !== null)).toEqual([true, false]);
  });

  it("refuses statements with an error the API answers as 503 unavailable", () => {
    expect(isDatabaseUnavailable(fencedStoreError("x"))).toBe(true);
  });
});
