// The process's Prometheus metrics (prom-client), one registry a process, and the server that answers them
// at `/metrics` on VIDROWS_METRICS_PORT, never on the API's port.
//
// One registry for the whole process, not one per app: the counters are moved from deep inside the
// pipeline (the extractor, the worker, the dispatcher), where threading an instance through every
// constructor would cost more than it says. A test process that builds several apps shares the counters,
// and a test reads how far they moved.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export const registry = new Registry();

/** Seconds, from a millisecond's request to a slow model's minutes. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180];

// The HTTP status is `code`, as Prometheus's own HTTP instrumentation (client_golang's promhttp) names it,
// so that the usual queries (`code=~"5.."`) and dashboards work unchanged.
export const httpRequests = new Counter({
  name: "vidrows_http_requests_total",
  help: "HTTP requests answered, by route (the pattern, not the path), method and status code.",
  labelNames: ["route", "method", "code"] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: "vidrows_http_request_duration_seconds",
  help: "How long HTTP requests took to answer, in seconds, by route, method and status code.",
  labelNames: ["route", "method", "code"] as const,
  buckets: durationBuckets,
  registers: [registry],
});

export const videosInFlight = new Gauge({
  name: "vidrows_videos_in_flight",
  help: "Videos this process's worker holds: fetching captions, asking the model, or settling.",
  registers: [registry],
});

/** What `vidrows_videos_waiting` reads at each scrape: set by the composition root from its store. */
let countWaitingVideos: (() => Promise<number>) | undefined;

export function countWaitingVideosWith(count: (() => Promise<number>) | undefined): void {
  countWaitingVideos = count;
}

export const videosWaiting = new Gauge({
  name: "vidrows_videos_waiting",
  help: "Videos queued and not yet claimed by any worker, in the whole database, as of the scrape.",
  registers: [registry],
  async collect() {
    if (countWaitingVideos) this.set(await countWaitingVideos());
  },
});

export const videosSettled = new Counter({
  name: "vidrows_videos_settled_total",
  help: "Videos this process settled, by outcome (done, failed) and code (the per-video error code; ok when done).",
  labelNames: ["outcome", "code"] as const,
  registers: [registry],
});

export const modelRequests = new Counter({
  name: "vidrows_model_requests_total",
  help: "Requests to the language model, by outcome: ok, malformed (an answer that was not rows), http_<status>, connection.",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const modelRequestDuration = new Histogram({
  name: "vidrows_model_request_duration_seconds",
  help: "How long the language model took to answer one request, whatever the outcome.",
  buckets: durationBuckets,
  registers: [registry],
});

export const modelTokens = new Counter({
  name: "vidrows_model_tokens_total",
  help: "Tokens the language model reported in `usage` for the answers used, by kind (prompt, completion).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

export const captionFetches = new Counter({
  name: "vidrows_caption_fetches_total",
  help: "Caption fetches, by source (youtube, dir, url, yt-dlp...) and outcome (ok, or the error code).",
  labelNames: ["source", "outcome"] as const,
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: "vidrows_webhook_deliveries_total",
  help: "Webhook delivery attempts, by outcome: delivered, retry (a failure to try again), give_up.",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const handovers = new Counter({
  name: "vidrows_handovers_total",
  help: "Jobs whose rows this process handed over (the answer written whole, the rows then deleted).",
  registers: [registry],
});

const buildInfo = new Gauge({
  name: "vidrows_build_info",
  help: "Always 1; its labels say which vidrows (`version`) runs on which Node.js (`node_version`).",
  labelNames: ["version", "node_version"] as const,
  registers: [registry],
});

/** Names the running build in `vidrows_build_info`: the composition root knows the package's version. */
export function describeBuild(version: string): void {
  buildInfo.reset();
  buildInfo.set({ version, node_version: process.version }, 1);
}

let processMetricsCollected = false;

/**
 * Node's process metrics (`process_*`: CPU, memory, file descriptors; `nodejs_*`: event loop lag, heap,
 * garbage collection, handles), under their standard names, so that the usual Node.js dashboards read
 * them. Collected only once a process serves metrics (they watch the event loop and the garbage
 * collector), and once a process: a test process starts several apps on the one registry.
 */
function collectProcessMetrics(): void {
  if (processMetricsCollected) return;
  processMetricsCollected = true;
  collectDefaultMetrics({ register: registry });
}

/** Serves the registry at `GET /metrics` on `host`:`port` (0 for any free port); anything else is a 404. */
export async function startMetricsServer(
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  collectProcessMetrics();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (request.method !== "GET" || path !== "/metrics") {
      response
        .writeHead(404, { "content-type": "text/plain" })
        .end("Not found: metrics are at GET /metrics.\n");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(`${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
