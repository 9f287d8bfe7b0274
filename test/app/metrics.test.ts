// Prometheus metrics: served on VIDROWS_METRICS_PORT (never on the API's port), and moved by a job: its
// requests, its video settled, the model's requests and tokens, the caption fetch, its webhook, and the
// handover.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { handoverRecorded, newVideoId, waitFor } from "../support/jobs-api.js";
import { type PipelineServer, startPipelineServer } from "../support/pipeline.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

/** Every sample of a Prometheus text exposition: `name{label="value",...} number`. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples named `name` whose labels include `labels`. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text)
    .filter((sample) => sample.name === name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`metrics on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startPipelineServer(dialect.name, {
        config: {
          metricsPort: 0,
          webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2], leaseSeconds: 60 },
        },
        app: { dispatcher: { pollIntervalMs: 50 } },
      });
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    const scrape = async () => {
      const url = server.app.metricsUrl;
      if (url === undefined) throw new Error("no metrics served");
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
      return answer.text();
    };

    it("serves /metrics on its own port, and the API's port answers 404 there", async () => {
      expect(server.app.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(server.app.metricsUrl as string).port).not.toBe(new URL(server.url).port);
      const onApi = await server.call("GET", "/metrics");
      expect(onApi.status).toBe(404);
      const elsewhere = await fetch(new URL("/other", server.app.metricsUrl));
      expect(elsewhere.status).toBe(404);
    });

    it("moves the counters of a job's requests, video, model requests and tokens, caption fetch and handover", async () => {
      const before = await scrape();
      const { key } = await server.workspace();
      const hook = await server.call("POST", "/v1/webhooks", {
        key,
        body: { url: `${receiver.origin}/${dialect.name}` },
      });
      expect(hook.status, hook.text).toBe(201);
      const videoId = newVideoId();
      server.addCaptions(videoId, 30);
      const submitted = await server.call("POST", "/v1", {
        key,
        body: { videos: [videoId], schema: { columns: ["product", "price"] } },
      });
      expect(submitted.status).toBe(202);
      const jobId: string = submitted.body.job_id;
      await server.waitForSettled(key, jobId);
      await handoverRecorded(server.app.store.db, jobId);
      // The job's event reaches the receiver, and its attempt is counted once the answer is judged.
      await receiver.waitForAt(`/${dialect.name}`, 1);
      const after = await waitFor("the delivery to be counted", async () => {
        const text = await scrape();
        return total(text, "vidrows_webhook_deliveries_total", { outcome: "delivered" }) >
          total(before, "vidrows_webhook_deliveries_total", { outcome: "delivered" })
          ? text
          : undefined;
      });
      const moved = (name: string, labels: Record<string, string> = {}) =>
        total(after, name, labels) - total(before, name, labels);

      expect(moved("vidrows_http_requests_total", { route: "/v1", method: "POST", status: "202" })).toBe(1);
      expect(
        moved("vidrows_http_requests_total", { route: "/v1/:job_id", method: "GET", status: "200" }),
      ).toBeGreaterThan(0);
      expect(moved("vidrows_http_request_duration_seconds_count", { route: "/v1", method: "POST" })).toBe(1);
      expect(moved("vidrows_videos_settled_total", { outcome: "done", code: "ok" })).toBe(1);
      expect(moved("vidrows_model_requests_total", { outcome: "ok" })).toBe(1);
      expect(moved("vidrows_model_request_duration_seconds_count")).toBe(1);
      // The fake model reports 1 prompt and 1 completion token an answer.
      expect(moved("vidrows_model_tokens_total", { kind: "prompt" })).toBe(1);
      expect(moved("vidrows_model_tokens_total", { kind: "completion" })).toBe(1);
      expect(moved("vidrows_caption_fetches_total", { source: "dir", outcome: "ok" })).toBe(1);
      expect(moved("vidrows_handovers_total")).toBe(1);
      expect(moved("vidrows_webhook_deliveries_total", { outcome: "delivered" })).toBe(1);
      expect(total(after, "vidrows_videos_in_flight")).toBe(0);
      expect(total(after, "vidrows_videos_waiting")).toBe(0);
    });
  });
}
