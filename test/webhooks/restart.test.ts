// Deliveries survive a crash: the server process is killed between two attempts at an event, started
// again on the same database, and the event is still delivered, under the same webhook-id.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle, type FreshDatabase, freshDatabase } from "../support/databases.js";
import { type FakeModel, startFakeModel } from "../support/fake-model.js";
import { defaultModelBehaviour, webVtt } from "../support/pipeline.js";
import { killAllChildren, startServerProcess } from "../support/processes.js";
import { call } from "../support/test-server.js";
import { waitUntil } from "../support/waiting.js";
import { startWebhookReceiver, verifiedEvent, type WebhookReceiver } from "../support/webhook-receiver.js";
import { useWorkBudgets, workWaitMs } from "../support/time-budgets.js";

useWorkBudgets();

const caCert = fileURLToPath(new URL("../fixtures/tls/cert.pem", import.meta.url));

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
        await killAllChildren();
        await receiver?.close();
        await model?.close();
        await database?.drop();
        if (captionsDir) rmSync(captionsDir, { recursive: true, force: true });
      });

      it("delivers the event after the process is killed between attempts and started again", async () => {
        const serve = () => startServerProcess({ databaseUrl: database.url, env, withWorker: true });
        const first = await serve();
        const key = first.printedKey() ?? undefined;
        expect(key, first.stdout()).toBeDefined();
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

        await receiver.waitForAt(path, 1, workWaitMs);
        await waitUntil(
          "the first attempt to be recorded",
          async () => {
            const listed = await call(first.url, "GET", `/v1/webhooks/${endpoint.body.id}/deliveries`, {
              key,
            });
            return listed.body.data.length === 1;
          },
          workWaitMs,
          20,
        );
        await first.kill();
        // Killed between the attempts: the retry was not made by the first process.
        expect(receiver.receivedAt(path)).toHaveLength(1);

        const second = await serve();
        expect(second.printedKey()).toBeNull();
        const received = await receiver.waitForAt(path, 2, workWaitMs);
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
          workWaitMs,
        );
        expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
          [2, 200],
          [1, 500],
        ]);
        await second.kill();
        expect(receiver.receivedAt(path)).toHaveLength(2);
      });
    },
  );
}
