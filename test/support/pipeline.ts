// A server wired for the pipeline: captions from a temporary folder and a fake model that the test controls.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppOptions } from "../../src/app.js";
import type { Config } from "../../src/config.js";
import type { DialectName } from "./databases.js";
import { type FakeModel, type FakeModelBehaviour, rowsReply, startFakeModel } from "./fake-model.js";
import { startTestServer, type TestServer } from "./test-server.js";
import { sleep } from "../../src/concurrency/sleep.js";

/** A WebVTT file of `lines` cues spread evenly over `durationSeconds`. */
export function webVtt(durationSeconds: number, lines: string[]): string {
  const step = durationSeconds / lines.length;
  const stamp = (s: number) => {
    const ms = Math.round(s * 1000);
    const h = Math.floor(ms / 3_600_000);
    const m = Math.floor((ms % 3_600_000) / 60_000);
    const sec = Math.floor((ms % 60_000) / 1000);
    return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
  };
  const cues = lines.map((line, i) => `${stamp(i * step)} --> ${stamp((i + 1) * step)}\n${line}\n`);
  return `WEBVTT\n\n${cues.join("\n")}`;
}

export interface PipelineServer extends TestServer {
  readonly model: FakeModel;
  readonly captionsDir: string;
  /** Puts a captions file for `videoId` into the folder. */
  addCaptions(videoId: string, durationSeconds: number, lines?: string[]): void;
  /** Polls the job until it has settled (bounded), and answers that first settled read. */
  waitForSettled(key: string, jobId: string, timeoutMs?: number): Promise<any>;
}

/** By default the model finds one row per chunk: `{product: "widget", price: 5}` with the schema's columns. */
export const defaultModelBehaviour: FakeModelBehaviour = () => rowsReply([{ product: "widget", price: 5 }]);

export async function startPipelineServer(
  dialect: DialectName,
  options: {
    respond?: FakeModelBehaviour;
    modelDelayMs?: number;
    config?: Partial<Config>;
    app?: Partial<AppOptions>;
  } = {},
): Promise<PipelineServer> {
  const model = await startFakeModel({
    respond: options.respond ?? defaultModelBehaviour,
    delayMs: options.modelDelayMs,
  });
  const captionsDir = mkdtempSync(join(tmpdir(), "vidrows-captions-"));
  const server = await startTestServer(
    dialect,
    {
      captions: `dir:${captionsDir}`,
      model: { baseUrl: model.url, apiKey: "test-key", model: "fake-model" },
      ...options.config,
    },
    options.app,
  );
  return {
    ...server,
    model,
    captionsDir,
    addCaptions(videoId, durationSeconds, lines = ["We sell the widget for five dollars.", "That is all."]) {
      writeFileSync(join(captionsDir, `${videoId}.vtt`), webVtt(durationSeconds, lines));
    },
    async waitForSettled(key, jobId, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const read = await server.call("GET", `/v1/${jobId}`, { key });
        if (read.status !== 200) throw new Error(`GET /v1/${jobId} answered ${read.status}: ${read.text}`);
        if (read.body.status !== "processing") return read.body;
        if (Date.now() > deadline)
          throw new Error(`Job ${jobId} did not settle in ${timeoutMs} ms: ${read.text}`);
        await sleep(50);
      }
    },
    async close() {
      await server.close();
      await model.close();
      rmSync(captionsDir, { recursive: true, force: true });
    },
  };
}
