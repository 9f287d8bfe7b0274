// The API's per-minute budget as its latest answer told it (the RateLimit-* headers), for the overview.
export interface RateLimitState {
  readonly limit: number;
  readonly remaining: number;
  readonly resetSeconds: number;
  /** When the answer carrying these headers arrived. */
  readonly seenAt: Date;
}

type Listener = (state: RateLimitState) => void;

let latest: RateLimitState | null = null;
const listeners = new Set<Listener>();

export function latestRateLimit(): RateLimitState | null {
  return latest;
}

export function onRateLimit(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function headerNumber(headers: Headers, name: string): number | null {
  const value = Number(headers.get(name) ?? "");
  return headers.has(name) && Number.isFinite(value) ? value : null;
}

/**
 * The fetch given to the client: the browser's own, reading each answer's rate-limit headers on the way
 * (the client hands back bodies only). It sends nothing of its own.
 */
export const fetchWatchingRateLimit: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const limit = headerNumber(response.headers, "ratelimit-limit");
  const remaining = headerNumber(response.headers, "ratelimit-remaining");
  const resetSeconds = headerNumber(response.headers, "ratelimit-reset");
  if (limit !== null && remaining !== null && resetSeconds !== null) {
    latest = { limit, remaining, resetSeconds, seenAt: new Date() };
    for (const listener of listeners) listener(latest);
  }
  return response;
};
