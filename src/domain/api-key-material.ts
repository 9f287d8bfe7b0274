// API key material: generating keys, hashing them for storage, masking them for display.
import { createHash, randomInt } from "node:crypto";

export type KeyEnvironment = "live" | "test";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const keyPattern = /^vr_(live|test)_[0-9A-Za-z]{32}$/;

/** `vr_live_` or `vr_test_` and 32 base62 characters: about 190 bits of entropy. */
export function generateApiKey(environment: KeyEnvironment): string {
  let body = "";
  for (let i = 0; i < 32; i++) body += base62[randomInt(62)];
  return `vr_${environment}_${body}`;
}

export function looksLikeApiKey(candidate: string): boolean {
  return keyPattern.test(candidate);
}

/**
 * SHA-256 of the key. A slow password hash would buy nothing here: the key is random and long, so
 * guessing it from its hash is hopeless, and a fast hash keeps authentication cheap on every request.
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function maskApiKey(environment: KeyEnvironment, lastFour: string): string {
  return `vr_${environment}_****${lastFour}`;
}
