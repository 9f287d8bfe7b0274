// The one way a wait after failures is computed: growing from a first wait, capped, with jitter.

export interface Backoff {
  /** The wait after the first failure. */
  readonly firstMs: number;
  /** How each later wait grows: it doubles (the default), or adds `firstMs` each time. */
  readonly growth?: "doubling" | "linear";
  /** No wait grows past this, before jitter (default: no cap). */
  readonly maxMs?: number;
  /**
   * The grown wait is multiplied by a random factor from `low` to `high`, so that the many callers a
   * failure hit at once do not all come back at the same instant. Default [0.5, 1]: half fixed, half random.
   */
  readonly jitter?: Jitter;
}

export type Jitter = readonly [low: number, high: number];

/** Half of the wait fixed, half random. */
export const halfJitter: Jitter = [0.5, 1];
/** The exact wait, for a place whose waits were never random. */
export const noJitter: Jitter = [1, 1];

/** The wait after `failures` failures (1 for the first), in milliseconds. */
export function backoffDelay(failures: number, backoff: Backoff, random: () => number = Math.random): number {
  const grown =
    backoff.growth === "linear" ? backoff.firstMs * failures : backoff.firstMs * 2 ** (failures - 1);
  const ceiling = Math.min(backoff.maxMs ?? Infinity, grown);
  const [low, high] = backoff.jitter ?? halfJitter;
  return ceiling * (low + random() * (high - low));
}
