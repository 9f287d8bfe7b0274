// Deliveries survive a crash: the server process is killed between two attempts at an event, started
// again on the same database, and the event is still delivered, under the same webhook-id.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "./support/databases.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { defaultModelBehaviour, webVtt } from "./support/pipeline.js";
import { cliPath } from "./support/processes.js";
import { call } from "./support/test-server.js";
import { waitUntil } from "./support/waiting.js";
import { startWebhookReceiver, verifiedEvent, type WebhookReceiver } from "./support/webhook-receiver.js";

const caCert = fileURLToPath(new URL("./fixtures/tls/cert.pem", import.meta.url));

interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => string;
}

const children = new Set<ChildProcess>();

/**
 * Starts `vidrows serve` (API, worker and webhook dispatcher in one process) with `env` on top of a
 * clean environment, and answers once it logs where it listens (bounded).
 */
async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(DATABASE_URL|HOST|PORT|LOG_LEVEL|VIDROWS_.*)$/.test(name)) base[name] = value;
  }
  const cwd = mkdtempSync(join(tmpdir(), "vidrows-cwd-"));
  const child = spawn(process.execPath, [cliPath, "serve"], { cwd, env: { ...base, ...env }, stdio: "pipe" });
  children.add(child);
  child.once("exit", () => {
    children.delete(child);
    rmSync(cwd, { recursive: true, force: true });
  });
  let output = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`vidrows serve was not listening after 30 s:\n${output}`));
    }, 30_000);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`vidrows serve exited (${code ?? signal}) before listening:\n${output}`));
    });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const address = /"msg":"vidrows is listening"/.test(output)
        ? /"address":"(http:\/\/[^"]+)"/.exec(output)?.[1]
        : undefined;
      if (address) {
        clearTimeout(timer);
        resolve(address);
      }
    });
  });
  return { child, url, output: () => output };
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  return exited;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `webhook delivery across a crash on ${dialectTitle(dialect)}`,
    () => {
      let receiver: WebhookReceiver;
      let model: FakeModel;
      let database: FreshDatabase;
      let captionsDir: string;
      let env: Record<string, string>;
      beforeAll(async () => {
        receiver = await startWebhookReceiver();
        model = await startFakeModel({ respond: defaultModelBehaviour });
        database = await freshDatabase(dialect.name);
        captionsDir = mkdtempSync(join(tmpdir(), "vidrows-captions-"));
        writeFileSync(
          join(captionsDir, "aaaaaaaaaaa.vtt"),
          webVtt(60, ["We sell the widget for five dollars."]),
        );
        env = {
          DATABASE_URL: database.url,
          HOST: "127.0.0.1",
          PORT: "0",
          LOG_LEVEL: "info",
          VIDROWS_CAPTIONS: `dir:${captionsDir}`,
          VIDROWS_LLM_BASE_URL: model.url,
          VIDROWS_LLM_API_KEY: "x",
          VIDROWS_LLM_MODEL: "fake-model",
          VIDROWS_WEBHOOK_ALLOW_PRIVATE: "1",
          // One retry, late enough that the test kills the process before it is due.
          VIDROWS_WEBHOOK_RETRY_SCHEDULE: "3",
          NODE_EXTRA_CA_CERTS: caCert,
        };
      });
      afterAll(async () => {
        await Promise.all([...children].map(killed));
        await receiver?.close();
        await model?.close();
        await database?.drop();
        if (captionsDir) rmSync(captionsDir, { recursive: true, force: true });
      });

      it("delivers the event after the process is killed between attempts and started again", async () => {
        const first = await startServe(env);
        const key = /\bvr_live_[0-9A-Za-z]{32}\b/.exec(first.output())?.[0];
        expect(key, first.output()).toBeDefined();
        const path = `/restart-${dialect.name}`;
        receiver.answerAt(path, [500], 200);
        const endpoint = await call(first.url, "POST", "/v1/webhooks", {
          key,
          body: { url: `${receiver.origin}${path}`, events: ["job.completed"] },
        });
        expect(endpoint.status, endpoint.text).toBe(201);
        const job = await call(first.url, "POST", "/v1", {
          key,
          body: { videos: ["aaaaaaaaaaa"], schema: { columns: ["product", "price"] } },
        });
        expect(job.status, job.text).toBe(202);

        await receiver.waitForAt(path, 1, 20_000);
        await waitUntil(
          "the first attempt to be recorded",
          async () => {
            const listed = await call(first.url, "GET", `/v1/webhooks/${endpoint.body.id}/deliveries`, {
              key,
            });
            return listed.body.data.length === 1;
          },
          10_000,
          20,
        );
        await killed(first.child);
        // Killed between the attempts: the retry was not made by the first process.
        expect(receiver.receivedAt(path)).toHaveLength(1);

        const second = await startServe(env);
        expect(second.output()).not.toMatch(/vr_live_/);
        const received = await receiver.waitForAt(path, 2, 20_000);
        expect(received[1]?.headers["webhook-id"]).toBe(received[0]?.headers["webhook-id"]);
        const event = verifiedEvent(endpoint.body.secret, received[1] as (typeof received)[number]);
        expect(event).toMatchObject({
          type: "job.completed",
          data: { job_id: job.body.job_id, status: "done" },
        });

        const attempts = await waitUntil(
          "the second attempt to be recorded",
          async () => {
            const listed = await call(second.url, "GET", `/v1/webhooks/${endpoint.body.id}/deliveries`, {
              key,
            });
            return listed.body.data.length === 2 ? (listed.body.data as any[]) : undefined;
          },
          10_000,
        );
        expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
          [2, 200],
          [1, 500],
        ]);
        await killed(second.child);
        expect(receiver.receivedAt(path)).toHaveLength(2);
      });
    },
  );
}
