// The server the dashboard's browser suites browse: captions from a folder, a fake model whose answers a
// test can hold back (to keep a job running), and webhooks allowed to reach the local test receiver.
import { randomBytes } from "node:crypto";
import type { Config } from "../../src/config.js";
import { rowsReply, messageOf, type FakeModelRequest } from "./fake-model.js";
import { type PipelineServer, startPipelineServer } from "./pipeline.js";
import { newVideoId } from "./jobs-api.js";

export interface DashboardServer extends PipelineServer {
  /**
   * A video with captions; its model answer (one widget row, or `rows`) waits until `release()` when held.
   * Rows other than the widget row have the columns `product` and `price`, as `submitJob` asks.
   */
  video(options?: { held?: boolean; rows?: readonly Record<string, unknown>[] }): {
    id: string;
    release: () => void;
  };
  /** Submits a job through the API and answers its id. */
  submitJob(key: string, videos: string[]): Promise<string>;
}

/** `config`: settings beyond the suites' own (a fake yt-dlp for listings, say). */
export async function startDashboardServer(config: Partial<Config> = {}): Promise<DashboardServer> {
  const gates = new Map<string, Promise<void>>();
  const releases: (() => void)[] = [];
  const answers = new Map<string, readonly Record<string, unknown>[]>();
  const respond = async (request: FakeModelRequest) => {
    const transcript = messageOf(request, "user");
    for (const [marker, gate] of gates) if (transcript.includes(marker)) await gate;
    for (const [id, rows] of answers) if (transcript.includes(id)) return rowsReply(rows);
    return rowsReply([{ product: "widget, large", price: 5 }]);
  };
  const server = await startPipelineServer("sqlite", {
    respond,
    config: { webhooks: { allowPrivate: true, retryScheduleSeconds: [0.2], leaseSeconds: 60 }, ...config },
    app: { dispatcher: { pollIntervalMs: 50 } },
  });
  return {
    ...server,
    video({ held = false, rows } = {}) {
      const id = newVideoId();
      if (rows !== undefined) answers.set(id, rows);
      let release = () => {};
      const lines = [`We sell the large widget for five dollars. ${id}`];
      if (held) {
        const marker = `HOLD${randomBytes(6).toString("hex")}`;
        gates.set(marker, new Promise<void>((resolve) => (release = resolve)));
        releases.push(release);
        lines.push(marker);
      }
      server.addCaptions(id, 30, lines);
      return { id, release };
    },
    async submitJob(key, videos) {
      const answer = await server.call("POST", "/v1", {
        key,
        body: { videos, schema: { columns: ["product", "price"] } },
      });
      if (answer.status !== 202) throw new Error(`POST /v1 answered ${answer.status}: ${answer.text}`);
      return answer.body.job_id as string;
    },
    async close() {
      for (const release of releases) release();
      await server.close();
    },
  };
}
