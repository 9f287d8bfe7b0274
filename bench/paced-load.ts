// Latency at a fixed offered rate: requests sent on a schedule, whether or not earlier ones have been
// answered (an open loop), each timed in microseconds from the moment it was sent.
import { Agent, request } from "node:http";

/**
 * Why a second way of loading: autocannon keeps its connections busy (a closed loop), so its latency
 * is the time a request waits behind the others, and a server half as fast shows twice the latency by
 * construction (Little's law: mean latency = connections / throughput). To compare tails fairly, the
 * server and the bare one are offered the same rate here, below what either can take. A request's time
 * counts from when it was handed to the connection pool, so a wait for a free connection counts; it
 * does not count from when it was due, because then this process's own timer lag (it sends in ticks of
 * a millisecond or more) would count as the server's. How far sending fell behind is reported apart.
 */
export interface PacedSpec {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** Requests started per second, on a fixed schedule. */
  ratePerSecond: number;
  durationSeconds: number;
  /** The most connections open at once; requests due while all are busy wait for one (and that wait counts). */
  connections: number;
}

export interface PacedSummary {
  ratePerSecond: number;
  sent: number;
  ok: number;
  failed: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** The most a request was sent after it was due: large means this process, not the server, was behind. */
  maxSendLagMs: number;
}

/** The value at `fraction` of the sorted `values` (nearest rank). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] as number;
}

/** How many requests were due by `elapsedMs` into the run (never more than the run holds). */
export function dueBy(elapsedMs: number, spec: Pick<PacedSpec, "ratePerSecond" | "durationSeconds">): number {
  const total = Math.floor(spec.ratePerSecond * spec.durationSeconds);
  return Math.min(total, Math.floor((elapsedMs * spec.ratePerSecond) / 1000) + 1);
}

export async function runPaced(spec: PacedSpec): Promise<PacedSummary> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const url = new URL(spec.url);
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
  const headers = body ? { ...spec.headers, "content-length": String(body.length) } : spec.headers;
  const latenciesMs: number[] = [];
  let ok = 0;
  let failed = 0;
  let sent = 0;
  let outstanding = 0;
  let maxSendLagMs = 0;
  const intervalMs = 1000 / spec.ratePerSecond;
  const start = performance.now();

  const send = (dueAt: number) => {
    const sentAt = performance.now();
    maxSendLagMs = Math.max(maxSendLagMs, sentAt - dueAt);
    outstanding++;
    const done = (success: boolean) => {
      outstanding--;
      latenciesMs.push(performance.now() - sentAt);
      if (success) ok++;
      else failed++;
    };
    const req = request(url, { method: spec.method, headers, agent }, (res) => {
      res.resume();
      res.once("end", () => done((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
    });
    req.once("error", () => done(false));
    req.end(body);
  };

  await new Promise<void>((resolve) => {
    const total = Math.floor(spec.ratePerSecond * spec.durationSeconds);
    const tick = () => {
      const due = dueBy(performance.now() - start, spec);
      while (sent < due) send(start + sent++ * intervalMs);
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  // Waits (bounded) for the last answers.
  const deadline = performance.now() + 10_000;
  while (outstanding > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  failed += outstanding;
  agent.destroy();

  const sorted = latenciesMs.sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value * 1000) / 1000;
  return {
    ratePerSecond: spec.ratePerSecond,
    sent,
    ok,
    failed,
    latencyMs: {
      p50: ms(percentile(sorted, 0.5)),
      p90: ms(percentile(sorted, 0.9)),
      p99: ms(percentile(sorted, 0.99)),
      max: ms(sorted.at(-1) ?? 0),
    },
    maxSendLagMs: ms(maxSendLagMs),
  };
}
