// Cost: the settings that size what a process keeps in memory (config/memory-settings.ts; docs/operations.md,
// "Memory budget"): read from the environment, and seen in effect on a real server: SQLite's page cache,
// memory-mapped reads and statement cache on its connection, the remembered answers on both databases.
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { defaultMemorySettings } from "../../src/config/memory-settings.js";
import { openSqliteConnection, type SqliteConnection } from "../../src/store/sqlite/sqlite-driver.js";
import { withStatementCache } from "../../src/store/sqlite/statement-cache.js";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, exampleJobBody } from "../support/endpoints.js";
import { keyCheckStatement, StatementLog } from "../support/statement-log.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serverOn(
  dialect: "sqlite" | "postgres",
  memory?: Partial<typeof defaultMemorySettings>,
  log?: StatementLog,
) {
  const server = await startTestServer(
    dialect,
    { ...acceptingJobs.config, ...(memory && { memory: { ...defaultMemorySettings, ...memory } }) },
    { ...acceptingJobs.app, ...(log && { wrapStore: (store) => log.watch(store) }) },
  );
  servers.push(server);
  return server;
}

describe("Cost: the memory settings", () => {
  it("default to a 16 MiB page cache, 256 MiB mapped, 1000 statements and 256 answers per kind", () => {
    expect(loadConfig({}).memory).toEqual({
      sqliteCacheMb: 16,
      sqliteMmapMb: 256,
      sqliteStatements: 1000,
      rememberedAnswers: 256,
    });
  });

  it("read each from its variable", () => {
    const memory = loadConfig({
      VIDROWS_SQLITE_CACHE_MB: "4",
      VIDROWS_SQLITE_MMAP_MB: "0",
      VIDROWS_SQLITE_STATEMENTS: "50",
      VIDROWS_REMEMBERED_ANSWERS: "3",
    }).memory;
    expect(memory).toEqual({ sqliteCacheMb: 4, sqliteMmapMb: 0, sqliteStatements: 50, rememberedAnswers: 3 });
  });

  it.each([
    ["VIDROWS_SQLITE_CACHE_MB", "0"],
    ["VIDROWS_SQLITE_CACHE_MB", "-5"],
    ["VIDROWS_SQLITE_MMAP_MB", "lots"],
    ["VIDROWS_SQLITE_STATEMENTS", "1e3"],
    ["VIDROWS_REMEMBERED_ANSWERS", "0"],
    ["VIDROWS_REMEMBERED_ANSWERS", "99999999999"],
  ])("refuse %s=%s, naming the variable", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe("Cost: SQLite's memory on a real server's connection", () => {
  const pragma = async (server: TestServer, name: string) => {
    const { rows } = await sql<Record<string, number>>`${sql.raw(`pragma ${name}`)}`.execute(
      server.app.store.db,
    );
    return Number(Object.values(rows[0] ?? {})[0]);
  };

  it("has the default page cache (16 MiB, as a negative KiB count) and 256 MiB of mapped reads", async () => {
    const server = await serverOn("sqlite");
    expect(await pragma(server, "cache_size")).toBe(-16 * 1024);
    expect(await pragma(server, "mmap_size")).toBe(256 * 2 ** 20);
  });

  it("takes VIDROWS_SQLITE_CACHE_MB and VIDROWS_SQLITE_MMAP_MB", async () => {
    const server = await serverOn("sqlite", { sqliteCacheMb: 4, sqliteMmapMb: 0 });
    expect(await pragma(server, "cache_size")).toBe(-4 * 1024);
    expect(await pragma(server, "mmap_size")).toBe(0);
  });
});

describe("Cost: the SQLite statement cache", () => {
  const opened: SqliteConnection[] = [];
  afterEach(() => {
    for (const connection of opened.splice(0)) connection.close();
  });

  /** A real connection behind the cache, counting the statements SQLite is asked to prepare. */
  function countingCache(capacity: number) {
    const sqlite = openSqliteConnection(":memory:");
    opened.push(sqlite);
    let prepared = 0;
    const counting = Object.create(sqlite) as SqliteConnection;
    counting.prepare = (text: string) => {
      prepared++;
      return sqlite.prepare(text);
    };
    const cache = withStatementCache(counting, undefined, { transaction: false }, capacity);
    return { cache, prepared: () => prepared };
  }

  it("keeps at most its capacity: the least recently used statement is prepared again", () => {
    const texts = ["select 1", "select 2", "select 3", "select 1"];
    const small = countingCache(2);
    for (const text of texts) small.cache.prepare(text);
    expect(small.prepared()).toBe(4);
    const large = countingCache(3);
    for (const text of texts) large.cache.prepare(text);
    expect(large.prepared()).toBe(3);
  });
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `Cost: VIDROWS_REMEMBERED_ANSWERS on ${dialectTitle(dialect)}`,
    () => {
      /** Whether the third read of page A ran a read beside the key check, after A, B of one kind. */
      async function thirdReadComputes(rememberedAnswers: number): Promise<boolean> {
        const log = new StatementLog();
        const server = await serverOn(dialect.name, { rememberedAnswers }, log);
        const { key } = await server.workspace("pro");
        const job = await server.call("POST", "/v1", { key, body: exampleJobBody() });
        expect(job.status, job.text).toBe(202);
        const [a, b] = ["/v1?limit=25", "/v1?limit=10"];
        // The first requests write last_used_at and reserve rate-limit hits; then reads can be remembered.
        for (const path of [a, b, a, b]) expect((await server.call("GET", path, { key })).status).toBe(200);
        log.clear();
        expect((await server.call("GET", a, { key })).status).toBe(200);
        return log.statements().some((q) => !keyCheckStatement.test(q.sql));
      }

      it("with 1, a second list page pushes the first out: it is computed again", async () => {
        expect(await thirdReadComputes(1)).toBe(true);
      });

      it("with 2, both pages stay remembered", async () => {
        expect(await thirdReadComputes(2)).toBe(false);
      });
    },
  );
}
