// A tiny OpenAI-compatible chat-completions server: answers one row per request, at once or after a delay.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface BenchModel {
  /** The API root, for VIDROWS_LLM_BASE_URL. */
  readonly url: string;
  readonly requests: number;
  readonly maxInFlight: number;
  /** When the first request came (ms), or 0. */
  readonly firstRequestAt: number;
  /** When each answer was sent (ms), in order. */
  readonly answeredAt: readonly number[];
  close(): Promise<void>;
}

const answer = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 0,
  model: "bench-model",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: JSON.stringify({ rows: [{ product: "widget", price: 5 }] }),
        refusal: null,
      },
      finish_reason: "stop",
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

export async function startBenchModel(delayMs: number): Promise<BenchModel> {
  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let firstRequestAt = 0;
  const answeredAt: number[] = [];
  const server = createServer((req, res) => {
    if (requests === 0) firstRequestAt = Date.now();
    requests++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once("close", () => {
      inFlight--;
    });
    // The body is not needed; it is read so the connection can be reused.
    req.resume();
    req.once("end", () => {
      const send = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(answer);
        answeredAt.push(Date.now());
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get firstRequestAt() {
      return firstRequestAt;
    },
    answeredAt,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
