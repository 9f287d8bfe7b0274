// Random bytes for keys and IVs, drawn from the system a few kilobytes at a time.
import { randomBytes } from "node:crypto";

/**
 * A submission seals each of its URLs under a fresh IV and makes a data key, and each `randomBytes` call
 * is a trip into the system's generator: with ten URLs those calls were a quarter of a PostgreSQL
 * submission's CPU in the profile (docs/postgres-profile.md). Drawing 4 KiB at once and handing out
 * slices costs one call per few hundred keys or IVs. Every byte is handed out once: a new pool is drawn
 * when one runs out, never refilled in place, and each caller gets its own copy.
 */
const poolSize = 4096;
let pool = randomBytes(poolSize);
let poolOffset = 0;

/** `count` fresh random bytes (at most the pool's size), never handed to another caller. */
export function pooledRandomBytes(count: number): Buffer {
  if (count > poolSize) return randomBytes(count);
  if (poolOffset + count > poolSize) {
    pool = randomBytes(poolSize);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + count));
  poolOffset += count;
  return bytes;
}
