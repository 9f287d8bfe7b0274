// verifyWebhook against the server's real signed deliveries, and the SDK's delivery attempts and resend.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { schema } from "../../../test/support/jobs-api.js";
import { waitUntil } from "../../../test/support/waiting.js";
import { startPipelineServer, type PipelineServer } from "../../../test/support/pipeline.js";
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from "../../../test/support/webhook-receiver.js";
import { verifyWebhook, VidrowsWebhookError } from "../src/index.js";
import { clientFor } from "./client-support.js";

async function webhookFailure(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VidrowsWebhookError);
  return (error as VidrowsWebhookError).code;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`verifyWebhook on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startPipelineServer(dialect.name, {
        config: { webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2], leaseSeconds: 60 } },
        app: { dispatcher: { pollIntervalMs: 50 } },
      });
      server.addCaptions("ccccccccccc", 30);
      server.addCaptions("ddddddddddd", 30);
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    it("accepts the server's signed deliveries and refuses altered, foreign or stale ones", async () => {
      const vr = clientFor(server.url, (await server.workspace()).key);
      const path = `/${dialect.name}`;
      const endpoint = await vr.webhooks.create({ url: `${receiver.origin}${path}` });
      const job = await vr.jobs.submit({ videos: ["ccccccccccc", "ddddddddddd"], schema });
      const delivered = await receiver.waitForAt(path, 2);

      const events = await Promise.all(
        delivered.map((d: ReceivedWebhook) => verifyWebhook(endpoint.secret, d.body, d.headers)),
      );
      expect(events.map((e) => e.type).sort()).toEqual(["batch.completed", "job.completed"]);
      for (const event of events) {
        expect(event.id).toMatch(/^evt_/);
        expect(event.data).toMatchObject({ job_id: job.job_id, status: "done", videos: 2 });
      }
      // A Headers object and a Uint8Array body serve as well as Node's header record and a string.
      const first = delivered[0] as ReceivedWebhook;
      const headers = new Headers(Object.entries(first.headers).map(([k, v]) => [k, String(v)]));
      expect((await verifyWebhook(endpoint.secret, new TextEncoder().encode(first.body), headers)).id).toBe(
        first.headers["webhook-id"],
      );

      expect(await webhookFailure(verifyWebhook(endpoint.secret, first.body + " ", first.headers))).toBe(
        "bad_signature",
      );
      const other = await vr.webhooks.create({ url: `${receiver.origin}/other` });
      expect(await webhookFailure(verifyWebhook(other.secret, first.body, first.headers))).toBe(
        "bad_signature",
      );
      const sentAt = Number(first.headers["webhook-timestamp"]) * 1000;
      expect(
        await webhookFailure(
          verifyWebhook(endpoint.secret, first.body, first.headers, { now: sentAt + 301_000 }),
        ),
      ).toBe("stale_timestamp");
      expect(
        await webhookFailure(
          verifyWebhook(endpoint.secret, first.body, first.headers, { now: sentAt - 301_000 }),
        ),
      ).toBe("stale_timestamp");
      const { "webhook-signature": _dropped, ...unsigned } = first.headers;
      expect(await webhookFailure(verifyWebhook(endpoint.secret, first.body, unsigned))).toBe(
        "missing_headers",
      );

      // The attempts are listed, and a resend arrives with the same webhook-id, verifiable again. An
      // attempt is recorded once its answer is back, which may be a moment after the receiver has it.
      const attempts = await waitUntil(
        "both attempts recorded",
        async () => {
          const listed = await vr.webhooks.attempts(endpoint.id);
          return listed.data.length >= 2 && listed;
        },
        10_000,
      );
      expect(attempts.data).toHaveLength(2);
      const attempt = attempts.data[0] as (typeof attempts.data)[number];
      const resent = await vr.webhooks.resend(endpoint.id, attempt.delivery_id);
      expect(resent.event_id).toBe(attempt.event_id);
      const third = (await receiver.waitForAt(path, 3))[2] as ReceivedWebhook;
      expect(third.headers["webhook-id"]).toBe(attempt.event_id);
      expect((await verifyWebhook(endpoint.secret, third.body, third.headers)).id).toBe(attempt.event_id);
    });
  });
}
