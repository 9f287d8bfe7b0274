// Identifiers: a type prefix and a time-ordered random body, so ids sort by creation and prefix search works.
import { randomBytes } from "node:crypto";

// `led` (credit ledger lines) is internal. `dlv` is an event's delivery to one endpoint; `att` one attempt at it.
export type IdPrefix =
  "ws" | "key" | "job" | "vid" | "sch" | "wh" | "evt" | "req" | "dlv" | "att" | "led" | "upl";

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

// Every request makes an id (its request id), and ids made in the same millisecond share their time
// part: it is encoded once per millisecond.
let lastTimeMs = Number.NaN;
let lastTime = "";

function timeChars(ms: number): string {
  if (ms !== lastTimeMs) {
    lastTime = encodeTime(ms);
    lastTimeMs = ms;
  }
  return lastTime;
}

// Random characters drawn from the system a few kilobytes at a time, each byte turned into a character
// of the alphabet as the pool is filled: one call per id would cost more than the rest of making it,
// and an id's random part is then one slice of the pool instead of sixteen joined characters.
const alphabetCodes = Buffer.from(alphabet, "latin1");
const poolSize = 4096;
let pool = randomAlphabetChars(poolSize);
let poolOffset = 0;

function randomAlphabetChars(size: number): Buffer {
  const bytes = randomBytes(size);
  for (let i = 0; i < size; i++) bytes[i] = alphabetCodes[(bytes[i] as number) & 31] as number;
  return bytes;
}

function randomChars(count: number): string {
  if (poolOffset + count > poolSize) {
    pool = randomAlphabetChars(poolSize);
    poolOffset = 0;
  }
  const chars = pool.toString("latin1", poolOffset, poolOffset + count);
  poolOffset += count;
  return chars;
}

/** `job_` + 10 characters of milliseconds + 16 random characters (80 bits). */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${timeChars(now)}${randomChars(16)}`;
}
