// Webhooks end to end: settled jobs reach a real HTTPS receiver, signed, retried, recorded.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "./support/databases.js";
import { type PipelineServer, startPipelineServer } from "./support/pipeline.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const schema = { columns: ["product", "price"] };

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`webhook delivery on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startPipelineServer(dialect.name, {
        config: { webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2, 0.2, 0.2] } },
        app: { dispatcher: { pollIntervalMs: 50 } },
      });
      server.addCaptions("aaaaaaaaaaa", 90);
      server.addCaptions("bbbbbbbbbbb", 30);
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    it("delivers job.completed and batch.completed, signed so that standardwebhooks verifies them", async () => {
      const { key } = await server.workspace();
      const endpoint = await server.call("POST", "/v1/webhooks", {
        key,
        body: { url: `${receiver.origin}/hooks` },
      });
      expect(endpoint.status).toBe(201);
      expect(endpoint.body.secret).toMatch(/^whsec_/);
      const before = receiver.received.length;
      const job = await server.call("POST", "/v1", {
        key,
        body: { videos: ["aaaaaaaaaaa", "bbbbbbbbbbb"], schema },
      });
      const received = (await receiver.waitFor(before + 2)).slice(before);
      const verifier = new Webhook(endpoint.body.secret);
      const events = received.map((r) =>
        verifier.verify(r.body, {
          "webhook-id": String(r.headers["webhook-id"]),
          "webhook-timestamp": String(r.headers["webhook-timestamp"]),
          "webhook-signature": String(r.headers["webhook-signature"]),
        }),
      ) as any[];
      expect(events.map((e) => e.type).sort()).toEqual(["batch.completed", "job.completed"]);
      for (const event of events) {
        expect(event.data).toMatchObject({
          job_id: job.body.job_id,
          status: "done",
          videos: 2,
          credits_charged: 3,
        });
        expect(JSON.stringify(event)).not.toContain("widget");
      }
      const attempts = await server.call("GET", `/v1/webhooks/${endpoint.body.id}/deliveries`, { key });
      expect(attempts.body.data).toHaveLength(2);
      expect(attempts.body.data[0]).toMatchObject({ attempt: 1, status_code: 200, error: null });
    });
  });
}
