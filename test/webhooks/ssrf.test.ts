// The SSRF guard end to end: without VIDROWS_WEBHOOK_ALLOW_PRIVATE, loopback, private and link-local
// targets, by address or by a name resolving to one, are never contacted; the attempts say why.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { waitUntil } from "../support/waiting.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

/** Opens (and closes) a TCP connection, so the test can show the receiver is reachable at `host`. */
function touch(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve();
    });
    socket.setTimeout(5000, () => socket.destroy(new Error(`no connection to ${host} within 5 s`)));
    socket.on("error", reject);
  });
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`webhook SSRF guard on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      // Listening on IPv4 and IPv6 loopback, so that any of the local forms below would reach it.
      receiver = await startWebhookReceiver({ dualStack: true });
      server = await startPipelineServer(dialect.name, {
        config: { webhooks: { allowPrivate: false, retryScheduleSeconds: [0.1], leaseSeconds: 60 } },
        app: { dispatcher: { pollIntervalMs: 50 } },
      });
      server.addCaptions("aaaaaaaaaaa", 30);
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    it("never connects to loopback, private or link-local targets, and records each refusal", async () => {
      const port = receiver.port;
      const targets = [
        `https://127.0.0.1:${port}/v4-loopback`,
        "https://10.0.0.1/private",
        "https://169.254.169.254/latest/meta-data",
        `https://[::1]:${port}/v6-loopback`,
        `https://[::ffff:127.0.0.1]:${port}/mapped`,
        `https://localhost:${port}/by-name`,
      ];
      const { key } = await server.workspace();
      const ids: string[] = [];
      for (const url of targets) {
        const created = await server.call("POST", "/v1/webhooks", {
          key,
          body: { url, events: ["job.completed"] },
        });
        expect(created.status, created.text).toBe(201);
        ids.push(created.body.id);
      }
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: ["aaaaaaaaaaa"], schema: { columns: ["product"] } },
      });
      expect(submitted.status).toBe(202);
      expect((await server.waitForSettled(key, submitted.body.job_id)).status).toBe("done");

      for (const [i, id] of ids.entries()) {
        // Two attempts (the schedule has one retry), both refused, and then the endpoint is disabled.
        const attempts = await waitUntil(
          `both attempts to ${targets[i]}`,
          async () => {
            const listed = await server.call("GET", `/v1/webhooks/${id}/deliveries`, { key });
            return listed.body.data.length === 2 ? (listed.body.data as any[]) : undefined;
          },
          10_000,
        );
        for (const attempt of attempts) {
          expect(attempt.status_code, targets[i]).toBeNull();
          expect(attempt.error, targets[i]).toMatch(/private or reserved address/);
        }
      }
      const listed = await server.call("GET", "/v1/webhooks", { key });
      expect(listed.body.data.map((e: any) => e.disabled)).toEqual(targets.map(() => true));
      expect(receiver.connections).toBe(0);
      expect(receiver.received).toHaveLength(0);

      // The receiver was reachable at every local form all along: the guard alone kept it out.
      for (const host of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "localhost"]) await touch(host, port);
      await waitUntil(
        "the receiver to see the test's own connections",
        () => receiver.connections >= 4,
        5000,
      );
    });
  });
}
