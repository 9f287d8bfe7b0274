// Prometheus metrics: served on VIDROWS_METRICS_PORT (never on the API's port), and moved by a job: its
// requests, its video settled, the model's requests and tokens, the caption fetch, its webhook, and the
// handover; Node's process metrics and the build's, every name and label as Prometheus's conventions say.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageVersion } from "../../src/cli/version.js";
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
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [
          m[1],
          m[2],
        ]),
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

/** Each metric family's name and type, from the exposition's `# TYPE` lines. */
function families(text: string): { name: string; type: string }[] {
  return [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({
    name: m[1] as string,
    type: m[2] as string,
  }));
}

/**
 * What Prometheus's naming conventions ask of a family and its samples' labels: snake_case, a counter
 * ending in `_total` (and nothing else ending so), units in base units and in the name (`_seconds`,
 * `_bytes`), never milliseconds or kilobytes; a histogram measuring something named by its unit.
 */
function conventionBreaches(text: string): string[] {
  const breaches: string[] = [];
  const snake = /^[a-z][a-z0-9_]*$/;
  for (const { name, type } of families(text)) {
    if (!snake.test(name)) breaches.push(`${name}: not snake_case`);
    if (type === "counter" && !name.endsWith("_total")) breaches.push(`${name}: a counter without _total`);
    // prom-client's `nodejs_active_*_total` gauges keep the names Node.js dashboards know them by.
    if (type !== "counter" && name.endsWith("_total") && name.startsWith("vidrows_")) {
      breaches.push(`${name}: a ${type} ending _total`);
    }
    if (/_(ms|millis|milliseconds|kb|mb|kilobytes|megabytes|minutes|hours)(_|$)/.test(name)) {
      breaches.push(`${name}: not in base units`);
    }
    if (type === "histogram" && !/_(seconds|bytes)$/.test(name))
      breaches.push(`${name}: a histogram without its unit`);
  }
  for (const sample of samples(text)) {
    for (const label of Object.keys(sample.labels)) {
      if (!snake.test(label)) breaches.push(`${sample.name}{${label}}: label not snake_case`);
    }
  }
  return [...new Set(breaches)];
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`metrics on ${dialectTitle(dialect)}`, () => {
    let server: PipelineServer;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startPipelineServer(dialect.name, {
        config: {
          // The API on every interface; the metrics stay on loopback (VIDROWS_METRICS_HOST's default).
          host: "0.0.0.0",
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

      expect(moved("vidrows_http_requests_total", { route: "/v1", method: "POST", code: "202" })).toBe(1);
      expect(
        moved("vidrows_http_requests_total", { route: "/v1/:job_id", method: "GET", code: "200" }),
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

    it("serves Node's process metrics and the build's version, every name and label as Prometheus's conventions say", async () => {
      await server.call("GET", "/v1/usage");
      const text = await scrape();
      // Node's process metrics under their standard names, as the usual Node.js dashboards read them.
      for (const name of [
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "process_start_time_seconds",
        "nodejs_eventloop_lag_seconds",
        "nodejs_heap_size_used_bytes",
        "nodejs_active_handles_total",
      ]) {
        expect(samples(text).filter((sample) => sample.name === name).length, name).toBeGreaterThan(0);
      }
      expect(total(text, "process_resident_memory_bytes")).toBeGreaterThan(1024 * 1024);
      expect(total(text, "nodejs_version_info", { version: process.version })).toBe(1);

      // One build-info series: 1, labelled with this package's version and the Node.js it runs on.
      const build = samples(text).filter((sample) => sample.name === "vidrows_build_info");
      expect(build).toEqual([
        {
          name: "vidrows_build_info",
          labels: { version: packageVersion(), node_version: process.version },
          value: 1,
        },
      ]);

      // The HTTP status is `code`, as Prometheus's own HTTP instrumentation names it.
      const request = samples(text).find((sample) => sample.name === "vidrows_http_requests_total");
      expect(Object.keys(request?.labels ?? {}).sort()).toEqual(["code", "method", "route"]);
      expect(conventionBreaches(text)).toEqual([]);
      // The check itself finds what it is there to find.
      expect(
        conventionBreaches(
          '# TYPE job_ms counter\njob_ms{jobId="1"} 1\n# TYPE wait histogram\nwait_bucket{le="1"} 1\n',
        ),
      ).toEqual([
        "job_ms: a counter without _total",
        "job_ms: not in base units",
        "wait: a histogram without its unit",
        "job_ms{jobId}: label not snake_case",
      ]);
    });
  });
}
