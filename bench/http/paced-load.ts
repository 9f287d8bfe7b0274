// Latency at a fixed offered rate: requests sent on a schedule, whether or not earlier ones have been
// answered (an open loop), to several servers side by side, each timed in microseconds from the moment
// it was sent.
import { Agent, request } from "node:http";

/**
 * Why a second way of loading: autocannon keeps its connections busy (a closed loop), so its latency
 * is the time a request waits behind the others, and a server half as fast shows twice the latency by
 * construction (Little's law: mean latency = connections / throughput). To compare tails fairly, the
 * server and the bare one are offered the same rate here, below what either can take, and at the same
 * time: each tick sends every target its due requests, so that a stall of the machine (these shared
 * machines stall for 10-20 ms now and then, which at 1,000 requests a second is what sets a p99) falls
 * on both alike rather than on whichever happened to run then.
 *
 * A request's time counts from when it was handed to the connection pool, so a wait for a free
 * connection counts; it does not count from when it was due, because then this process's own timer lag
 * (it sends in ticks of a millisecond or more) would count as the server's. How far sending fell behind
 * is reported apart.
 */
export interface PacedTarget {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

export interface PacedSpec {
  /** Each is sent `ratePerSecond` requests a second, side by side. */
  targets: PacedTarget[];
  /** Requests started per second to each target, on a fixed schedule. */
  ratePerSecond: number;
  durationSeconds: number;
  /** The most connections open at once to each target; requests due while all are busy wait for one (and that wait counts). */
  connections: number;
}

export interface PacedTargetSummary {
  sent: number;
  ok: number;
  failed: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
}

export interface PacedSummary {
  ratePerSecond: number;
  /** One per target, in the spec's order. */
  targets: PacedTargetSummary[];
  /** The most a request was sent after it was due: large means this process, not a server, was behind. */
  maxSendLagMs: number;
}

/** The value at `fraction` of the sorted `values` (nearest rank). */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] as number;
}

/** How many requests were due by `elapsedMs` into the run (never more than the run holds). */
export function dueBy(elapsedMs: number, spec: Pick<PacedSpec, "ratePerSecond" | "durationSeconds">): number {
  const total = Math.floor(spec.ratePerSecond * spec.durationSeconds);
  return Math.min(total, Math.floor((elapsedMs * spec.ratePerSecond) / 1000) + 1);
}

/** One target's connections and tally. */
class TargetLoad {
  readonly latenciesMs: number[] = [];
  ok = 0;
  failed = 0;
  sent = 0;
  outstanding = 0;
  private readonly agent: Agent;
  private readonly url: URL;
  private readonly body: Buffer | undefined;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly target: PacedTarget,
    connections: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
    this.url = new URL(target.url);
    this.body = target.body === undefined ? undefined : Buffer.from(target.body);
    this.headers = this.body
      ? { ...target.headers, "content-length": String(this.body.length) }
      : target.headers;
  }

  send(): void {
    const sentAt = performance.now();
    this.sent++;
    this.outstanding++;
    const done = (success: boolean) => {
      this.outstanding--;
      this.latenciesMs.push(performance.now() - sentAt);
      if (success) this.ok++;
      else this.failed++;
    };
    const req = request(
      this.url,
      { method: this.target.method, headers: this.headers, agent: this.agent },
      (res) => {
        res.resume();
        res.once("end", () => done((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
      },
    );
    req.once("error", () => done(false));
    req.end(this.body);
  }

  summary(): PacedTargetSummary {
    this.agent.destroy();
    const sorted = this.latenciesMs.sort((a, b) => a - b);
    const ms = (value: number) => Math.round(value * 1000) / 1000;
    return {
      sent: this.sent,
      ok: this.ok,
      // Answers still missing when the run gave up waiting count as failed.
      failed: this.failed + this.outstanding,
      latencyMs: {
        p50: ms(percentile(sorted, 0.5)),
        p90: ms(percentile(sorted, 0.9)),
        p99: ms(percentile(sorted, 0.99)),
        p999: ms(percentile(sorted, 0.999)),
        max: ms(sorted.at(-1) ?? 0),
      },
    };
  }
}

export async function runPaced(spec: PacedSpec): Promise<PacedSummary> {
  const loads = spec.targets.map((target) => new TargetLoad(target, spec.connections));
  const reversed = [...loads].reverse();
  const total = Math.floor(spec.ratePerSecond * spec.durationSeconds);
  const intervalMs = 1000 / spec.ratePerSecond;
  let sent = 0;
  let maxSendLagMs = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = dueBy(now - start, spec);
      if (sent < due) maxSendLagMs = Math.max(maxSendLagMs, now - (start + sent * intervalMs));
      // The targets take turns at going first, so that neither always waits for the other's send.
      for (; sent < due; sent++) for (const load of sent % 2 === 0 ? loads : reversed) load.send();
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  // Waits (bounded) for the last answers.
  const deadline = performance.now() + 10_000;
  const outstanding = () => loads.reduce((sum, load) => sum + load.outstanding, 0);
  while (outstanding() > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  return {
    ratePerSecond: spec.ratePerSecond,
    targets: loads.map((load) => load.summary()),
    maxSendLagMs: Math.round(maxSendLagMs * 1000) / 1000,
  };
}
