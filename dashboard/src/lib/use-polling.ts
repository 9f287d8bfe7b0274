// Calls `poll` every `intervalMs` while `active`; a page that reads progress uses it (reads that consume nothing).
import { useEffect, useRef } from "preact/hooks";

export function usePolling(active: boolean, intervalMs: number, poll: () => void): void {
  const latest = useRef(poll);
  latest.current = poll;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => latest.current(), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
}
