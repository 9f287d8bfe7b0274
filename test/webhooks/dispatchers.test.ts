// Two dispatcher processes on one PostgreSQL database: every attempt at every delivery is made exactly
// once, retries included, as the receiver counts them and as webhook_attempts records them.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import type { PipelineServer } from "../support/pipeline.js";
import { killAllChildren, type WorkerProcess } from "../support/processes.js";
import { waitUntil } from "../support/waiting.js";
import { startWebhookReceiver, verifiedEvent, type WebhookReceiver } from "../support/webhook-receiver.js";
import { startApiWithoutWorker, startWorkerFor, submitJob, videoIds } from "../support/worker-env.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

const caCert = fileURLToPath(new URL("../fixtures/tls/cert.pem", import.meta.url));
const postgres = dialects.find((d) => d.name === "postgres");
const jobs = 15;
const endpoints = 4;
// Each job has two videos: job.completed and batch.completed, to every endpoint, each failing once.
const deliveries = jobs * 2 * endpoints;

describe.skipIf(postgres?.skipReason !== null)(
  `two webhook dispatcher processes on ${postgres ? dialectTitle(postgres) : "postgres"}`,
  () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    let workers: WorkerProcess[] = [];
    beforeAll(async () => {
      // A short wait before each answer keeps deliveries in hand a while, so the two processes overlap.
      receiver = await startWebhookReceiver({ answerDelayMs: 40 });
      server = await startApiWithoutWorker("postgres");
      for (const video of videoIds("w", jobs * 2)) server.addCaptions(video, 30);
      const settings = {
        VIDROWS_WEBHOOK_ALLOW_PRIVATE: "1",
        VIDROWS_WEBHOOK_RETRY_SCHEDULE: "0.2",
        NODE_EXTRA_CA_CERTS: caCert,
      };
      workers = await Promise.all([startWorkerFor(server, settings), startWorkerFor(server, settings)]);
    });
    afterAll(async () => {
      await killAllChildren();
      await server?.close();
      await receiver?.close();
    });

    it("makes each attempt exactly once, and both processes deliver", async () => {
      // Every event fails its first attempt at each endpoint and succeeds on the retry.
      receiver.answerBy((request, earlier) =>
        earlier.some(
          (e) => e.path === request.path && e.headers["webhook-id"] === request.headers["webhook-id"],
        )
          ? 200
          : 500,
      );
      const { key } = await server.workspace("scale");
      const pathOf = new Map<string, string>();
      const secretOf = new Map<string, string>();
      for (let i = 0; i < endpoints; i++) {
        const path = `/dispatchers/${i}`;
        const created = await server.call("POST", "/v1/webhooks", {
          key,
          body: { url: `${receiver.origin}${path}` },
        });
        expect(created.status, created.text).toBe(201);
        pathOf.set(created.body.id, path);
        secretOf.set(path, created.body.secret);
      }
      const videos = videoIds("w", jobs * 2);
      for (let j = 0; j < jobs; j++) await submitJob(server, key, videos.slice(2 * j, 2 * j + 2));

      // Watch which dispatchers hold deliveries while the work runs.
      const owners = new Set<string>();
      const db = server.app.store.db;
      await waitUntil(
        "every delivery to finish",
        async () => {
          const all = await db.selectFrom("webhook_deliveries").select(["lease_owner", "status"]).execute();
          for (const row of all) if (row.lease_owner) owners.add(row.lease_owner);
          return all.length === deliveries && all.every((row) => row.status === "delivered");
        },
        90_000,
        10,
      );
      expect(receiver.received).toHaveLength(deliveries * 2);
      expect(owners.size, "both dispatchers held deliveries").toBe(2);

      // The receiver's count: each (endpoint, event) exactly twice, a 500 and then a 200.
      const perDelivery = new Map<string, number>();
      for (const request of receiver.received) {
        const secret = secretOf.get(request.path);
        expect(secret, request.path).toBeDefined();
        verifiedEvent(secret as string, request);
        const id = `${request.path} ${request.headers["webhook-id"]}`;
        perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
      }
      expect(perDelivery.size).toBe(deliveries);
      expect([...perDelivery.values()].every((count) => count === 2)).toBe(true);

      // The store's record agrees: attempts 1 and 2 of each delivery, once each, matching what arrived.
      const attempts = await db
        .selectFrom("webhook_attempts")
        .select(["delivery_id", "endpoint_id", "event_id", "attempt", "status_code"])
        .execute();
      expect(attempts).toHaveLength(deliveries * 2);
      const recorded = new Map<string, string[]>();
      for (const a of attempts) {
        const id = `${pathOf.get(a.endpoint_id)} ${a.event_id}`;
        recorded.set(id, [...(recorded.get(id) ?? []), `${a.attempt}:${a.status_code}`]);
      }
      expect([...recorded.keys()].sort()).toEqual([...perDelivery.keys()].sort());
      for (const [id, made] of recorded) expect(made.sort(), id).toEqual(["1:500", "2:200"]);
      const rows = await db.selectFrom("webhook_deliveries").select(["attempts", "status"]).execute();
      expect(rows.every((row) => row.attempts === 2 && row.status === "delivered")).toBe(true);
      // No worker failed along the way.
      for (const worker of workers) expect(worker.stderr()).not.toMatch(/webhook dispatch failed/);
    });
  },
);
