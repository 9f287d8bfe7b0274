// A real HTTPS webhook receiver on a random port, with the tests' self-signed certificate (or plain HTTP,
// as a receiver under development is).
import { readFileSync } from "node:fs";
import { createServer as createPlainServer, type IncomingHttpHeaders, type RequestListener } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { sleep } from "../../src/concurrency/sleep.js";
import type { Store } from "../../src/store/database.js";
import { waitUntil } from "./waiting.js";

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
  /** TCP connections accepted so far, whether or not a request followed (TLS may fail first). */
  readonly connections: number;
  /** Answers with these statuses in turn, then with `fallback` (200 unless changed). */
  answerWith(statuses: number[], fallback?: number): void;
  /**
   * Answers requests to `path` with these statuses in turn, then with `fallback`, whatever
   * `answerWith` says; a 3xx carries `location: <origin>/followed-redirect`.
   */
  answerAt(path: string, statuses: number[], fallback?: number): void;
  /**
   * Decides every answer not planned by `answerAt` with `decide`, given the request and those that
   * arrived before it (for "fail the first attempt at each event").
   */
  answerBy(decide: (request: ReceivedWebhook, earlier: readonly ReceivedWebhook[]) => number): void;
  /** The requests that arrived at `path`. */
  receivedAt(path: string): readonly ReceivedWebhook[];
  /** Waits (bounded) until `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<readonly ReceivedWebhook[]>;
  /** Waits (bounded) until `count` requests have arrived at `path`. */
  waitForAt(path: string, count: number, timeoutMs?: number): Promise<readonly ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** Where a redirect answer points; a test checks that nothing ever arrives there. */
export const redirectTarget = "/followed-redirect";

const tlsDir = new URL("../fixtures/tls/", import.meta.url);

interface AnswerPlan {
  queue: number[];
  fallback: number;
}

export interface ReceiverOptions {
  /** How `origin` names the receiver. */
  readonly host?: "localhost" | "127.0.0.1";
  /** Listen on every loopback form, IPv4 and IPv6 (`::`, dual stack), not only 127.0.0.1. */
  readonly dualStack?: boolean;
  /** Waits this long before answering each request, so that senders hold their work a while. */
  readonly answerDelayMs?: number;
  /** Plain HTTP (`origin` is `http://...`), as a receiver under development is. */
  readonly plain?: boolean;
}

async function waitUntilCount(
  current: () => readonly ReceivedWebhook[],
  count: number,
  timeoutMs: number,
  what: string,
): Promise<readonly ReceivedWebhook[]> {
  const deadline = Date.now() + timeoutMs;
  while (current().length < count) {
    if (Date.now() > deadline)
      throw new Error(`Expected ${count} webhooks${what}, received ${current().length}.`);
    await sleep(25);
  }
  return current();
}

export async function startWebhookReceiver(
  hostOrOptions: "localhost" | "127.0.0.1" | ReceiverOptions = "127.0.0.1",
): Promise<WebhookReceiver> {
  const options: ReceiverOptions =
    typeof hostOrOptions === "string" ? { host: hostOrOptions } : hostOrOptions;
  const received: ReceivedWebhook[] = [];
  let connections = 0;
  const general: AnswerPlan = { queue: [], fallback: 200 };
  const byPath = new Map<string, AnswerPlan>();
  let decide: ((request: ReceivedWebhook, earlier: readonly ReceivedWebhook[]) => number) | undefined;
  let origin = "";
  const listener: RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      const arrived: ReceivedWebhook = {
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      const earlier = [...received];
      received.push(arrived);
      const plan = byPath.get(path);
      const status = plan
        ? (plan.queue.shift() ?? plan.fallback)
        : decide
          ? decide(arrived, earlier)
          : (general.queue.shift() ?? general.fallback);
      const headers: Record<string, string> = { "content-type": "text/plain" };
      if (status >= 300 && status < 400) headers.location = `${origin}${redirectTarget}`;
      setTimeout(() => {
        response.writeHead(status, headers);
        response.end("ok");
      }, options.answerDelayMs ?? 0);
    });
  };
  const tls = {
    key: readFileSync(new URL("key.pem", tlsDir)),
    cert: readFileSync(new URL("cert.pem", tlsDir)),
  };
  const server = options.plain ? createPlainServer(listener) : createTlsServer(tls, listener);
  server.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) =>
    options.dualStack
      ? server.listen({ port: 0, host: "::", ipv6Only: false }, resolve)
      : server.listen(0, "127.0.0.1", resolve),
  );
  const port = (server.address() as AddressInfo).port;
  origin = `${options.plain ? "http" : "https"}://${options.host ?? "127.0.0.1"}:${port}`;
  const receivedAt = (path: string) => received.filter((r) => r.path === path);
  return {
    origin,
    port,
    received,
    get connections() {
      return connections;
    },
    answerWith(statuses, otherwise = 200) {
      general.queue = [...statuses];
      general.fallback = otherwise;
    },
    answerAt(path, statuses, otherwise = 200) {
      byPath.set(path, { queue: [...statuses], fallback: otherwise });
    },
    answerBy(decision) {
      decide = decision;
    },
    receivedAt,
    waitFor: (count, timeoutMs = 15_000) => waitUntilCount(() => received, count, timeoutMs, ""),
    waitForAt: (path, count, timeoutMs = 15_000) =>
      waitUntilCount(() => receivedAt(path), count, timeoutMs, ` at ${path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The event a received webhook carries, once `standardwebhooks` has verified its signature (it throws otherwise). */
export function verifiedEvent(secret: string, received: ReceivedWebhook): any {
  return new Webhook(secret).verify(received.body, {
    "webhook-id": String(received.headers["webhook-id"]),
    "webhook-timestamp": String(received.headers["webhook-timestamp"]),
    "webhook-signature": String(received.headers["webhook-signature"]),
  });
}

/**
 * The types of the events `receiver` got at `path`, verified with `secret`, once at least `count` have
 * arrived and `store` has no delivery pending: only then is the count final, so that a test can tell
 * an event sent twice from one sent once.
 */
export async function settledEventTypes(
  store: Store,
  receiver: WebhookReceiver,
  delivered: { path: string; count: number; secret: string },
  timeoutMs = 15_000,
): Promise<string[]> {
  await receiver.waitForAt(delivered.path, delivered.count, timeoutMs);
  await waitUntil(
    "no delivery pending",
    async () => {
      const pending = await store.db
        .selectFrom("webhook_deliveries")
        .select("id")
        .where("status", "=", "pending")
        .execute();
      return pending.length === 0;
    },
    timeoutMs,
  );
  return receiver
    .receivedAt(delivered.path)
    .map((received) => verifiedEvent(delivered.secret, received).type as string);
}
