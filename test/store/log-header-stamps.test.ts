// SQLite's read stamp from the write-ahead log's header (store/sqlite/log-header-stamps.ts): it stays put
// while nothing is committed and moves with a commit of another process, as PRAGMA data_version does.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import type { SqliteStore } from "../../src/store/sqlite/open-sqlite.js";
import { LogHeaderStamps } from "../../src/store/sqlite/log-header-stamps.js";

const folders: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function freshPath(): string {
  const folder = mkdtempSync(join(tmpdir(), "vidrows-log-header-"));
  folders.push(folder);
  return join(folder, "vidrows.db");
}

/** Commits one row from a process of its own, through the built store, as another server would. */
function commitFromAnotherProcess(path: string): void {
  const database = new URL("../../dist/store/database.js", import.meta.url).href;
  const script = [
    `import { sql } from "kysely";`,
    `import { openStore } from ${JSON.stringify(database)};`,
    `const store = openStore({ kind: "sqlite", path: ${JSON.stringify(path)} });`,
    "await sql`insert into notes (text) values ('from elsewhere')`.execute(store.db);",
    "await store.close();",
  ].join("\n");
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    cwd: new URL("../..", import.meta.url).pathname,
  });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
}

for (const logHeaderStamps of [true, false]) {
  describe(`the SQLite read stamp (${logHeaderStamps ? "the log's header" : "PRAGMA data_version"})`, () => {
    it("stays put without commits and moves when another process commits", async () => {
      const path = freshPath();
      const store = openStore({ kind: "sqlite", path }, { logHeaderStamps }) as SqliteStore;
      stores.push(store);
      await sql`create table notes (text text)`.execute(store.db);
      const before = store.readStampFromNow();
      expect(store.readStampFromNow().othersCommits).toBe(before.othersCommits);
      expect(store.readStampFromNow().value()).toBe(before.value());

      commitFromAnotherProcess(path);

      const after = store.readStampFromNow();
      expect(after.othersCommits).not.toBe(before.othersCommits);
      expect(after.value()).not.toBe(before.value());
      expect(store.readStampFromNow().othersCommits).toBe(after.othersCommits);
    });
  });
}

describe("LogHeaderStamps on a file it cannot trust", () => {
  const header = (fill: number) => Buffer.alloc(48, fill);

  it("counts a header whose two copies differ (caught half-written) as a change, each time", () => {
    const shm = `${freshPath()}-shm`;
    writeFileSync(shm, Buffer.concat([header(1), header(2)]));
    const stamps = new LogHeaderStamps(shm, () => "unused");
    const first = stamps.now();
    expect(stamps.now()).not.toBe(first);
    stamps.close();
  });

  it("is steady on a whole header and moves when it changes", () => {
    const shm = `${freshPath()}-shm`;
    writeFileSync(shm, Buffer.concat([header(1), header(1)]));
    const stamps = new LogHeaderStamps(shm, () => "unused");
    const first = stamps.now();
    expect(stamps.now()).toBe(first);
    writeFileSync(shm, Buffer.concat([header(3), header(3)]));
    expect(stamps.now()).not.toBe(first);
    stamps.close();
  });

  it("asks data_version when the file is missing or shorter than both copies", () => {
    const missing = new LogHeaderStamps(`${freshPath()}-shm`, () => 7);
    expect(missing.now()).toBe("v7");
    const shm = `${freshPath()}-shm`;
    writeFileSync(shm, header(1));
    const short = new LogHeaderStamps(shm, () => 8);
    expect(short.now()).toBe("v8");
    short.close();
  });
});
