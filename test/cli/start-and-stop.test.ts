// A server process on the Node.js that runs the tests starts, does a job's work, and stops cleanly: exit
// code 0 on SIGTERM and on SIGINT, and nothing on standard error. CI runs this file on every Node.js line
// users run (scripts/ci-node-lines.sh), where a native module that aborts at a garbage collection or at
// exit, or a warning printed at start, shows here first.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { type FakeModel, rowsReply, startFakeModel } from "../support/fake-model.js";
import { webVtt } from "../support/pipeline.js";
import { killAllChildren, runCli, type ServerProcess, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";
import { waitUntil } from "../support/waiting.js";

useWorkBudgets();

const video = "startStop01";

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`a server process on ${dialectTitle(dialect)}`, () => {
    const captions = mkdtempSync(join(tmpdir(), "vidrows-start-stop-"));
    writeFileSync(join(captions, `${video}.vtt`), webVtt(8, ["The widget costs five dollars."]));
    let database: FreshDatabase | undefined;
    let model: FakeModel | undefined;

    afterEach(async () => {
      await killAllChildren();
      await database?.drop();
      await model?.close();
      database = undefined;
      model = undefined;
    });
    afterAll(() => rmSync(captions, { recursive: true, force: true }));

    async function startServer(): Promise<{ server: ServerProcess; key: string }> {
      database = await freshDatabase(dialect.name);
      model = await startFakeModel({ respond: () => rowsReply([{ product: "widget", price: 5 }]) });
      const created = await runCli(
        ["workspace", "create", "--name", "start-stop", "--plan", "pro", "--json"],
        {
          DATABASE_URL: database.url,
        },
      );
      expect(created.code, created.stderr).toBe(0);
      // The last line is the workspace; a warning may be logged before it.
      const key = (JSON.parse(created.stdout.trim().split("\n").at(-1) ?? "") as { api_key: string }).api_key;
      const server = await startServerProcess({
        databaseUrl: database.url,
        withWorker: true,
        env: {
          VIDROWS_CAPTIONS: `dir:${captions}`,
          VIDROWS_LLM_BASE_URL: model.url,
          VIDROWS_LLM_API_KEY: "x",
          VIDROWS_LLM_MODEL: "fake-model",
        },
      });
      return { server, key };
    }

    it("processes a job, hands its rows over, and exits 0 on SIGTERM with nothing on standard error", async () => {
      const { server, key } = await startServer();
      const submitted = await call(server.url, "POST", "/v1", {
        key,
        body: { videos: [video], schema: { columns: ["product", "price"] } },
      });
      expect(submitted.status, submitted.text).toBe(202);
      const jobId = submitted.body.job_id as string;
      // The list never carries rows, so waiting on it takes nothing; the GET after it takes them.
      await waitUntil(
        `job ${jobId} to settle`,
        async () => (await call(server.url, "GET", "/v1", { key })).body.data?.[0]?.status === "done",
        workWaitMs,
      );
      const read = await call(server.url, "GET", `/v1/${jobId}`, { key });
      expect(read.status, read.text).toBe(200);
      expect(read.body.results[0].rows.results).toEqual([{ product: "widget", price: 5 }]);

      const ended = await server.stopWith("SIGTERM");
      expect(ended, server.stderr()).toEqual({ code: 0, signal: null });
      expect(server.stderr()).toBe("");
    });

    it("exits 0 on SIGINT (Ctrl-C in the terminal that ran npm start)", async () => {
      const { server, key } = await startServer();
      const usage = await call(server.url, "GET", "/v1/usage", { key });
      expect(usage.status, usage.text).toBe(200);
      const ended = await server.stopWith("SIGINT");
      expect(ended, server.stderr()).toEqual({ code: 0, signal: null });
      expect(server.stderr()).toBe("");
    });
  });
}
