// An upload's pieces sealed under the upload's own key (AES-256-GCM), so that deleting the key erases them.
import { createCipheriv, createDecipheriv } from "node:crypto";
import { pooledRandomBytes } from "../domain/random-pool.js";

const ivBytes = 12;
const tagBytes = 16;

/**
 * The piece's place (its upload and number) is authenticated with it, so a piece cannot be read as
 * another upload's or at another place without failing its check.
 */
function placeOf(uploadId: string, seq: number): Buffer {
  return Buffer.from(`${uploadId}/${seq}`, "utf8");
}

/** `plain` sealed under `key`: IV, tag and ciphertext, 28 bytes longer than the piece. */
export function sealChunk(key: Buffer, uploadId: string, seq: number, plain: Buffer): Buffer {
  const iv = pooledRandomBytes(ivBytes);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(placeOf(uploadId, seq));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The piece `sealed` holds; throws when it fails its check (another key, place or altered bytes). */
export function openChunk(key: Buffer, uploadId: string, seq: number, sealed: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, ivBytes));
  decipher.setAAD(placeOf(uploadId, seq));
  decipher.setAuthTag(sealed.subarray(ivBytes, ivBytes + tagBytes));
  return Buffer.concat([decipher.update(sealed.subarray(ivBytes + tagBytes)), decipher.final()]);
}
