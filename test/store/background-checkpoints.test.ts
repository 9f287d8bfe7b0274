// SQLite's checkpoints in a thread: what is committed reaches the database file without any commit
// checkpointing, the thread stops with the store, and a thread that cannot start says so.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { BackgroundCheckpoints } from "../../src/store/sqlite/background-checkpoints.js";
import { openStore, type Store } from "../../src/store/database.js";
import { chosenSqliteDriver } from "../../src/store/sqlite/sqlite-driver.js";

const folders: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function freshPath(): string {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-checkpoints-"));
  folders.push(folder);
  return join(folder, "vidrows.db");
}

/** A store with a row holding `marker` committed: in WAL mode, in the log and not yet in the database file. */
async function storeWithMarker(path: string, backgroundCheckpoints: boolean, marker: string) {
  const store = openStore({ kind: "sqlite", path }, { backgroundCheckpoints });
  stores.push(store);
  await sql`create table notes (text text)`.execute(store.db);
  await sql`insert into notes (text) values (${marker})`.execute(store.db);
  return store;
}

const inDatabaseFile = (path: string, marker: string) => readFileSync(path).includes(marker);

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe("background checkpoints", () => {
  it("copy the log into the database file while the serving connection never checkpoints", async () => {
    const path = freshPath();
    const marker = "marker-in-the-background-9f3a";
    const store = await storeWithMarker(path, true, marker);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(0);
    expect(await waitFor(() => inDatabaseFile(path, marker), 10_000)).toBe(true);
  });

  it("without the thread, a small commit stays in the log until SQLite's threshold", async () => {
    const path = freshPath();
    const marker = "marker-left-in-the-log-51c0";
    const store = await storeWithMarker(path, false, marker);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(1000);
    expect(await waitFor(() => inDatabaseFile(path, marker), 500)).toBe(false);
    expect(readFileSync(`${path}-wal`).includes(marker)).toBe(true);
  });

  it("stops with the store, which still leaves everything in the database file", async () => {
    const path = freshPath();
    const marker = "marker-after-close-77d2";
    const store = await storeWithMarker(path, true, marker);
    stores.splice(stores.indexOf(store), 1);
    await store.close();
    expect(inDatabaseFile(path, marker)).toBe(true);
    const reopened = openStore({ kind: "sqlite", path }, { backgroundCheckpoints: true });
    stores.push(reopened);
    const { rows } = await sql<{ text: string }>`select text from notes`.execute(reopened.db);
    expect(rows).toEqual([{ text: marker }]);
  });

  it("tells when its thread cannot start (here: no database file)", async () => {
    const checkpoints = new BackgroundCheckpoints(join(freshPath(), "missing.db"), chosenSqliteDriver());
    const failure = await new Promise<Error>((resolve) => checkpoints.onFailure(resolve));
    expect(failure.message).toMatch(/directory does not exist|unable to open|no such file/i);
    await checkpoints.stop();
  });
});

describe("background checkpoints in a process of their own", () => {
  it("let the process go on after the store is closed (the thread does not end it mid-close)", () => {
    const path = freshPath();
    const database = new URL("../../dist/store/database.js", import.meta.url).href;
    const script = [
      `import { openStore } from ${JSON.stringify(database)};`,
      `const store = openStore({ kind: "sqlite", path: ${JSON.stringify(path)} }, { backgroundCheckpoints: true });`,
      "await store.close();",
      'process.stdout.write("closed\\n");',
    ].join("\n");
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("closed\n");
    expect(result.status).toBe(0);
  });
});
