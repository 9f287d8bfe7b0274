// `vidrows cluster`: API processes sharing one port and workers, started and stopped as one.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { cliPath } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { sleep } from "../../src/concurrency/sleep.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vidrows cluster on ${dialectTitle(dialect)}`, () => {
    let database: FreshDatabase;
    beforeAll(async () => {
      database = await freshDatabase(dialect.name);
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("serves from two API processes on one port, runs a worker, and stops on SIGTERM", async () => {
      const child = spawn(process.execPath, [cliPath, "cluster", "--api", "2", "--workers", "1"], {
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: database.url,
          HOST: "127.0.0.1",
          PORT: "0",
          VIDROWS_LLM_BASE_URL: "http://127.0.0.1:9/v1",
          LOG_LEVEL: "info",
        },
        stdio: "pipe",
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      try {
        const deadline = Date.now() + workWaitMs;
        const ready = () => {
          const lines = stdout.split("\n").filter((l) => l.startsWith("{"));
          const entries = lines.map((l) => JSON.parse(l) as { msg: string; address?: string; pid: number });
          const apis = entries.filter((e) => e.msg === "vidrows is listening");
          const workers = entries.filter((e) => e.msg === "vidrows worker is running");
          return apis.length === 2 && workers.length === 1 ? apis : null;
        };
        let apis = ready();
        while (!apis) {
          if (Date.now() > deadline) throw new Error(`The cluster did not start:\n${stdout}`);
          await sleep(100);
          apis = ready();
        }
        const [first, second] = apis;
        expect(first?.address).toBe(second?.address);
        expect(first?.pid).not.toBe(second?.pid);
        const key = /\bvr_live_[0-9A-Za-z]{32}\b/.exec(stdout)?.[0];
        expect(key).toBeDefined();
        const answers = await Promise.all(
          Array.from({ length: 6 }, () => call(first?.address as string, "GET", "/v1/usage", { key })),
        );
        expect(answers.every((a) => a.status === 200)).toBe(true);
      } finally {
        child.kill("SIGTERM");
      }
      const timer = setTimeout(() => child.kill("SIGKILL"), workWaitMs);
      expect(await exited).toBe(0);
      clearTimeout(timer);
    });
  });
}
