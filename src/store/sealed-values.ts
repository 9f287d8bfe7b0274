// Values stored encrypted under a job's own data key (AES-256-GCM), so that deleting the key deletes them.
import { createCipheriv, createDecipheriv } from "node:crypto";
import { pooledRandomBytes } from "../domain/random-pool.js";

/**
 * PostgreSQL never zeroes the space a deleted or updated row leaves in its table's files, and only a
 * rewrite of the whole table (VACUUM FULL) removes it. Rather than rewrite the big tables, a job's rows
 * and submitted URLs are stored sealed under a random key of the job's own, kept in the small
 * `job_keys` table (migration 0008); the handover deletes the key and rewrites only that table's
 * partition (store/storage-eraser.ts), and whatever copies of the ciphertext remain are then noise.
 */

/** A sealed value is this prefix and base64 of IV, tag and ciphertext; plaintext JSON or a video reference never starts so. */
const sealedPrefix = "sealed1:";
const ivBytes = 12;
const tagBytes = 16;

/** A new random data key for one job. */
export function newDataKey(): Buffer {
  return pooledRandomBytes(32);
}

/** `text` sealed under `key`, as text to store. Each call draws a fresh IV, so equal texts seal differently. */
export function seal(key: Buffer, text: string): string {
  const iv = pooledRandomBytes(ivBytes);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return sealedPrefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** `text` sealed under `key` when the job has one (PostgreSQL), and as it is otherwise (SQLite, older jobs). */
export function sealIfKeyed(key: Buffer | null | undefined, text: string): string {
  return key ? seal(key, text) : text;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(sealedPrefix);
}

/**
 * The text a stored value holds: opened with `key` when sealed, as it is when stored before values were
 * sealed. Throws when a sealed value has no key (it was deleted: the value is gone) or fails its check.
 */
export function openStored(key: Buffer | null | undefined, stored: string): string {
  if (!isSealed(stored)) return stored;
  if (!key) throw new Error("A sealed value's data key is gone; the value can no longer be read.");
  const packed = Buffer.from(stored.slice(sealedPrefix.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, packed.subarray(0, ivBytes));
  decipher.setAuthTag(packed.subarray(ivBytes, ivBytes + tagBytes));
  return Buffer.concat([decipher.update(packed.subarray(ivBytes + tagBytes)), decipher.final()]).toString(
    "utf8",
  );
}
