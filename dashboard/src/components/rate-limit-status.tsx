// The per-minute request budget, as the latest API answer's RateLimit-* headers told it.
import { useEffect, useState } from "preact/hooks";
import { formatNumber } from "../lib/format.js";
import { latestRateLimit, onRateLimit } from "../session/rate-limit-watch.js";

export function RateLimitStatus() {
  const [state, setState] = useState(latestRateLimit);
  useEffect(() => onRateLimit(setState), []);
  if (state === null) return <p>No answer has told the rate limit yet.</p>;
  return (
    <p>
      {formatNumber(state.remaining)} of {formatNumber(state.limit)} requests left this minute; the budget is
      full again {state.resetSeconds} s after {state.seenAt.toLocaleTimeString()}.
    </p>
  );
}
