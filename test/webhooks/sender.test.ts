// One webhook POST as the sender makes it: its headers, its time limit, redirects left unfollowed, and
// private targets refused before any connection unless allowed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookSender } from "../../src/webhooks/webhook-sender.js";
import { redirectTarget, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

const body = JSON.stringify({ id: "evt_1", type: "job.completed" });
const headers = { "webhook-id": "evt_1", "webhook-timestamp": "1", "webhook-signature": "v1,x" };

describe("WebhookSender", () => {
  let receiver: WebhookReceiver;
  let slow: WebhookReceiver;
  const senders: WebhookSender[] = [];
  const sender = (options: ConstructorParameters<typeof WebhookSender>[0]) => {
    const made = new WebhookSender(options);
    senders.push(made);
    return made;
  };
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    slow = await startWebhookReceiver({ answerDelayMs: 3000 });
  });
  afterAll(async () => {
    await Promise.all(senders.map((s) => s.close()));
    await receiver?.close();
    await slow?.close();
  });

  it("POSTs the body as JSON with the signature headers, and reports the status", async () => {
    receiver.answerAt("/plain", [], 204);
    const result = await sender({ allowPrivate: true }).send(`${receiver.origin}/plain`, headers, body);
    expect(result).toMatchObject({ statusCode: 204, error: null });
    const [arrived] = receiver.receivedAt("/plain");
    expect(arrived?.body).toBe(body);
    expect(arrived?.headers).toMatchObject({ ...headers, "content-type": "application/json" });
    expect(arrived?.headers["user-agent"]).toMatch(/^vidrows-webhooks\//);
  });

  it("reports a redirect as it is, without following it", async () => {
    receiver.answerAt("/moved", [301], 200);
    const result = await sender({ allowPrivate: true }).send(`${receiver.origin}/moved`, headers, body);
    expect(result).toMatchObject({ statusCode: 301, error: null });
    expect(receiver.receivedAt(redirectTarget)).toHaveLength(0);
  });

  it("gives up on a receiver that does not answer within its time limit", async () => {
    const result = await sender({ allowPrivate: true, timeoutMs: 300 }).send(
      `${slow.origin}/hangs`,
      headers,
      body,
    );
    expect(result.statusCode).toBeNull();
    expect(result.error).toBe("No answer within 0.3 s.");
    expect(slow.receivedAt("/hangs")).toHaveLength(1);
  });

  it("refuses private targets before connecting, and reaches them only when allowed", async () => {
    const guarded = sender({ allowPrivate: false });
    for (const url of [`${receiver.origin}/refused`, `https://localhost:${receiver.port}/refused`]) {
      const result = await guarded.send(url, headers, body);
      expect(result.statusCode, url).toBeNull();
      expect(result.error, url).toMatch(/private or reserved address/);
    }
    expect(receiver.receivedAt("/refused")).toHaveLength(0);
    const allowed = await sender({ allowPrivate: true }).send(
      `https://localhost:${receiver.port}/refused`,
      headers,
      body,
    );
    expect(allowed.statusCode).toBe(200);
    expect(receiver.receivedAt("/refused")).toHaveLength(1);
  });
});
