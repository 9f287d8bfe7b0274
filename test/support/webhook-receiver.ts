// A real HTTPS webhook receiver on a random port, with the tests' self-signed certificate.
import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface WebhookReceiver {
  /** `https://localhost:<port>` (or the address form asked for). */
  readonly origin: string;
  readonly port: number;
  readonly received: readonly ReceivedWebhook[];
  /** Answers with these statuses in turn, then with `fallback` (200 unless changed). */
  answerWith(statuses: number[], fallback?: number): void;
  /** Waits (bounded) until `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<readonly ReceivedWebhook[]>;
  close(): Promise<void>;
}

const tlsDir = new URL("../fixtures/tls/", import.meta.url);

export async function startWebhookReceiver(
  host: "localhost" | "127.0.0.1" = "127.0.0.1",
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let queue: number[] = [];
  let fallback = 200;
  const server = createServer(
    { key: readFileSync(new URL("key.pem", tlsDir)), cert: readFileSync(new URL("cert.pem", tlsDir)) },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({
          path: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        });
        response.writeHead(queue.shift() ?? fallback, { "content-type": "text/plain" });
        response.end("ok");
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `https://${host}:${port}`,
    port,
    received,
    answerWith(statuses, otherwise = 200) {
      queue = [...statuses];
      fallback = otherwise;
    },
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`Expected ${count} webhooks, received ${received.length}.`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
