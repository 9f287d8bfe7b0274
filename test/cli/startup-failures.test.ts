// Start-up failures an operator can fix: a message naming the setting and the fix, exit 1, no stack trace.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { dialects, postgresUrl } from "../support/databases.js";
import { type CliResult, killAllChildren, runCli, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

const folder = mkdtempSync(join(tmpdir(), "vidrows-startup-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(async () => {
  await killAllChildren();
});

/** A start-up refusal: exit 1, the message and its fix on stderr, and no stack trace anywhere. */
function expectExplained(result: CliResult, says: RegExp, fix: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^vidrows: /);
  expect(result.stderr).toMatch(says);
  expect(result.stderr).toMatch(fix);
  expect(result.stderr + result.stdout).not.toMatch(/\n\s+at /);
}

/** A TCP port on 127.0.0.1 that `hold` keeps busy until closed. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const { port, server } = await holdPort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("vidrows serve refuses to start, saying what to do", () => {
  it("refuses a SQLite path whose folder does not exist, and does not make the folder", async () => {
    const missing = join(folder, "missing", "deeper");
    const result = await runCli(["serve"], { DATABASE_URL: join(missing, "x.db") });
    expectExplained(
      result,
      /DATABASE_URL is ".*x\.db", but its folder ".*deeper" does not exist/,
      /mkdir -p/,
    );
    expect(existsSync(join(folder, "missing"))).toBe(false);
  });

  it("names DATABASE_URL when its path is a folder, not a file", async () => {
    const result = await runCli(["migrate"], { DATABASE_URL: folder });
    expectExplained(result, /SQLite file ".*" in DATABASE_URL cannot be opened/, /not a folder/);
  });

  it("names DATABASE_URL and the fix when nothing listens at the PostgreSQL address", async () => {
    const port = await closedPort();
    const result = await runCli(["serve"], { DATABASE_URL: `postgres://someone@127.0.0.1:${port}/x` });
    expectExplained(
      result,
      new RegExp(
        `Nothing accepts connections at 127\\.0\\.0\\.1:${port}, the PostgreSQL server in DATABASE_URL`,
      ),
      /Start PostgreSQL there, or correct the host and port in DATABASE_URL/,
    );
  });

  it("refuses a malformed postgres:// URL without echoing its password", async () => {
    const result = await runCli(["serve"], { DATABASE_URL: "postgres://me:s3cret@db:port/x" });
    expectExplained(
      result,
      /DATABASE_URL is not a valid postgres:\/\/ URL/,
      /postgres:\/\/user:password@host/,
    );
    expect(result.stderr).not.toContain("s3cret");
  });

  it("names PORT and HOST when the port is taken", async () => {
    const { port, server } = await holdPort();
    try {
      const result = await runCli(["serve", "--no-worker"], {
        DATABASE_URL: join(folder, "port.db"),
        HOST: "127.0.0.1",
        PORT: String(port),
      });
      expectExplained(
        result,
        new RegExp(`Another process is already listening on 127\\.0\\.0\\.1:${port} \\(PORT ${port}, HOST`),
        /Set PORT to a free port/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

const postgres = dialects.find((d) => d.name === "postgres");
describe.skipIf(postgres?.skipReason !== null)("on the PostgreSQL server of the tests", () => {
  it("says how to create a database that does not exist", async () => {
    const url = new URL(postgresUrl);
    url.pathname = "/vidrows_no_such_database";
    const result = await runCli(["serve"], { DATABASE_URL: url.toString() });
    expectExplained(
      result,
      /The database "vidrows_no_such_database" named in DATABASE_URL does not exist/,
      new RegExp(`createdb -h ${url.hostname} -p ${url.port || 5432}.* vidrows_no_such_database`),
    );
  });
});

describe("expected refusals in the log", () => {
  it("logs a submission without a model at warn, with no stack", async () => {
    const server = await startServerProcess({ databaseUrl: join(folder, "no-model.db") });
    const key = server.printedKey() as string;
    const refused = await call(server.url, "POST", "/v1", {
      key,
      body: { videos: ["dQw4w9WgXcQ"], schema: { columns: ["a"] } },
    });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("extraction_unavailable");
    await server.stop();
    const lines = server
      .stdout()
      .split("\n")
      .filter((line) => line.includes(refused.body.error.request_id));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const entry = JSON.parse(line);
      expect(entry.level).toBeLessThanOrEqual(40);
      expect(line).not.toMatch(/stack/);
    }
    expect(lines.some((line) => JSON.parse(line).level === 40)).toBe(true);
  });
});

describe("an unexpected failure (a bug)", () => {
  async function reported(logLevel: string | undefined): Promise<string> {
    const { reportFailure } = await import("../../src/cli/failures.js");
    const saved = process.env.LOG_LEVEL;
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      if (logLevel === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = logLevel;
      expect(await reportFailure(new Error("something unforeseen"))).toBe(1);
    } finally {
      spy.mockRestore();
      if (saved === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = saved;
    }
    return written.join("");
  }

  it("prints its message and how to see more, and its stack only at LOG_LEVEL=debug", async () => {
    const plain = await reported(undefined);
    expect(plain).toMatch(/^vidrows: something unforeseen\n/);
    expect(plain).toMatch(/LOG_LEVEL=debug/);
    expect(plain).not.toMatch(/\n\s+at /);
    expect(await reported("info")).not.toMatch(/\n\s+at /);
    expect(await reported("debug")).toMatch(/\n\s+at /);
  });
});
