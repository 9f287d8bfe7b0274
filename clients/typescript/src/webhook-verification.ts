// verifyWebhook: proves a delivery came from vidrows (Standard Webhooks signature, fresh timestamp) and
// returns its typed event. Web Crypto only, so it runs in Node 20+, browsers and edge runtimes alike.
import type { JobCounts, WebhookEventType } from "./api-types.js";

/** The body of a webhook delivery (contract §9). Rows are never sent: the job's read is the handover. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly created_at: string;
  readonly data: {
    readonly job_id: string;
    readonly status: "done" | "failed" | "partial";
    readonly videos: number;
    readonly schema: string;
    readonly credits_charged: number;
    readonly counts: JobCounts;
    readonly completed_at: string;
  };
}

export type WebhookErrorCode =
  "missing_headers" | "bad_secret" | "stale_timestamp" | "bad_signature" | "bad_body";

export class VidrowsWebhookError extends Error {
  override readonly name = "VidrowsWebhookError";
  constructor(
    readonly code: WebhookErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Headers as a `Headers`, a Node `IncomingHttpHeaders`, or a plain object. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyOptions {
  /** How far the timestamp may be from now, either way; default 300 (Standard Webhooks' five minutes). */
  readonly toleranceSeconds?: number;
  /** Now, in milliseconds (for tests and replays of old deliveries). */
  readonly now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === "string" ? value : value?.[0];
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Checks `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the
 * base64 part of `whsec_...`; several space-separated signatures are allowed while secrets rotate) and
 * that `webhook-timestamp` is within the tolerance, so a captured delivery cannot be replayed later.
 * `rawBody` must be the bytes as received: re-serialised JSON would not match.
 */
export async function verifyWebhook(
  secret: string,
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new VidrowsWebhookError(
      "missing_headers",
      "webhook-id, webhook-timestamp and webhook-signature are all required.",
    );
  }
  const keyBytes = base64Bytes(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  if (!keyBytes || keyBytes.length === 0) {
    throw new VidrowsWebhookError("bad_secret", "The signing secret is not whsec_ followed by base64.");
  }
  const seconds = Number(timestamp);
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - seconds) > toleranceSeconds) {
    throw new VidrowsWebhookError(
      "stale_timestamp",
      `webhook-timestamp ${timestamp} is more than ${toleranceSeconds} s from now.`,
    );
  }
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const entry of signatures.split(" ")) {
    const [version, encoded] = entry.split(",", 2);
    const signature = version === "v1" && encoded ? base64Bytes(encoded) : null;
    // subtle.verify compares in constant time.
    if (signature && (await crypto.subtle.verify("HMAC", key, signature, signed))) return parseEvent(body);
  }
  throw new VidrowsWebhookError("bad_signature", "No webhook-signature matches this secret and body.");
}

function parseEvent(body: string): WebhookEvent {
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new VidrowsWebhookError("bad_body", "The signed body is not JSON.");
  }
}
