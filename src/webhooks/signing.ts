// Standard Webhooks signatures: secrets, and the headers that let a receiver prove a message is ours.
import { createHmac, randomBytes } from "node:crypto";

const secretPrefix = "whsec_";

/** `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return secretPrefix + randomBytes(32).toString("base64");
}

/**
 * The Standard Webhooks headers for one delivery attempt: `webhook-id` (the event id, the same on
 * every retry, so receivers can drop duplicates), `webhook-timestamp` (Unix seconds) and
 * `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed with the
 * base64-decoded part of the secret after `whsec_`.
 */
export function signatureHeaders(secret: string, eventId: string, body: string, now = Date.now()) {
  const timestamp = Math.floor(now / 1000).toString();
  const key = Buffer.from(secret.slice(secretPrefix.length), "base64");
  const signature = createHmac("sha256", key).update(`${eventId}.${timestamp}.${body}`).digest("base64");
  return {
    "webhook-id": eventId,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${signature}`,
  };
}
