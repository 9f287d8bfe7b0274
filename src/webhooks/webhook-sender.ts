// Sends one signed webhook POST: 10-second limit, redirects not followed, private targets refused.
import { isIP } from "node:net";
import { Agent, request } from "undici";
import { isForbiddenAddress } from "../domain/network-addresses.js";
import { guardedLookup } from "./address-guard.js";

export interface SendResult {
  /** The receiver's status, when it answered. */
  readonly statusCode: number | null;
  /** Why there was no answer (timeout, refused address, connection error). */
  readonly error: string | null;
  readonly durationMs: number;
}

export interface WebhookSenderOptions {
  /** VIDROWS_WEBHOOK_ALLOW_PRIVATE: let webhooks reach private and loopback addresses. */
  readonly allowPrivate: boolean;
  readonly timeoutMs?: number;
}

export class WebhookSender {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(private readonly options: WebhookSenderOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    // The guard sits in the socket's own name lookup, so the address checked is the one connected to.
    this.agent = new Agent({
      connect: options.allowPrivate ? {} : { lookup: guardedLookup as never },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    // An address written into the URL is connected to without a lookup, so it is checked here.
    if (!this.options.allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) {
      return { statusCode: null, error: `${host} is a private or reserved address.`, durationMs: 0 };
    }
    try {
      const response = await request(url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "user-agent": "vidrows-webhooks/1" },
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // The answer's body is not used; read it away so the connection can be reused.
      await response.body.dump();
      return { statusCode: response.statusCode, error: null, durationMs: elapsed() };
    } catch (error) {
      return { statusCode: null, error: describeFailure(error, this.timeoutMs), durationMs: elapsed() };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { message?: string } };
  if (
    e.name === "TimeoutError" ||
    e.code === "UND_ERR_HEADERS_TIMEOUT" ||
    e.code === "UND_ERR_BODY_TIMEOUT"
  ) {
    return `No answer within ${timeoutMs / 1000} s.`;
  }
  const message = e.cause?.message ?? e.message ?? String(error);
  return e.code ? `${e.code}: ${message}` : message;
}
