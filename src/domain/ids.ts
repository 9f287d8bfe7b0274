// Identifiers: a type prefix and a time-ordered random body, so ids sort by creation and prefix search works.
import { randomBytes } from "node:crypto";

// `led` (credit ledger lines) is internal. `dlv` is an event's delivery to one endpoint; `att` one attempt at it.
export type IdPrefix = "ws" | "key" | "job" | "vid" | "sch" | "wh" | "evt" | "req" | "dlv" | "att" | "led";

// Crockford's base32 in lowercase: no i, l, o or u, so ids read aloud and copied by hand survive.
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = alphabet[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

// Random bytes drawn from the system a few kilobytes at a time: one call per id would cost more than
// the rest of making it, and every request makes one (its request id).
const poolSize = 4096;
let pool = randomBytes(poolSize);
let poolOffset = 0;

function randomChars(count: number): string {
  if (poolOffset + count > poolSize) {
    pool = randomBytes(poolSize);
    poolOffset = 0;
  }
  let out = "";
  for (let i = poolOffset; i < poolOffset + count; i++) out += alphabet[(pool[i] as number) & 31];
  poolOffset += count;
  return out;
}

/** `job_` + 10 characters of milliseconds + 16 random characters (80 bits). */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${randomChars(16)}`;
}
