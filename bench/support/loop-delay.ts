// The event-loop delay of a measured process (the server under test, or the bare one), taken where it
// runs: a preload (loop-delay-preload.ts) starts `perf_hooks.monitorEventLoopDelay` in the child, and
// the benchmark asks it, over the child's IPC channel, to start over before a load and to answer its
// percentiles after it. A request that waits behind a long turn of the loop waits for all of it, so
// the loop's delay is where a server's own tail shows, apart from the machine's.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The preload, as built (the benchmark runs from dist/bench/). */
export const loopDelayPreloadPath = fileURLToPath(new URL("./loop-delay-preload.js", import.meta.url));

/** How often the monitor's timer samples the loop, ms: fine enough for a turn of a millisecond or two. */
export const loopDelayResolutionMs = 1;

/** A process's event-loop delay over one load, in milliseconds. */
export interface LoopDelay {
  /** Samples the monitor took: about one per `loopDelayResolutionMs`, or per turn when turns are longer. */
  readonly samples: number;
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly maxMs: number;
  /** Garbage collections over the same time: each stops the loop for its pause (wall time). */
  readonly gc?: GcPauses;
}

/** The garbage collector's pauses over one load, from `PerformanceObserver` "gc" entries. */
export interface GcPauses {
  readonly count: number;
  /** Of them, full (mark-sweep-compact) collections; the others are mostly scavenges of the young space. */
  readonly major: number;
  readonly totalMs: number;
  readonly maxMs: number;
}

/** Sums "gc" performance entries (`detail.kind`: 1 scavenge, 2 minor mark-sweep, 4 mark-sweep-compact, ...). */
export class GcTally {
  private count = 0;
  private major = 0;
  private totalMs = 0;
  private maxMs = 0;

  add(entry: { duration: number; detail?: unknown }): void {
    this.count++;
    if (((entry.detail as { kind?: number } | undefined)?.kind ?? 0) & 4) this.major++;
    this.totalMs += entry.duration;
    this.maxMs = Math.max(this.maxMs, entry.duration);
  }

  reset(): void {
    this.count = this.major = this.totalMs = this.maxMs = 0;
  }

  pauses(): GcPauses {
    const ms = (value: number) => Math.round(value * 1000) / 1000;
    return { count: this.count, major: this.major, totalMs: ms(this.totalMs), maxMs: ms(this.maxMs) };
  }
}

/** What a monitor's histogram (node:perf_hooks' `RecordableHistogram`/`IntervalHistogram`) answers, in ns. */
export interface NanosecondHistogram {
  readonly count: number;
  readonly mean: number;
  readonly max: number;
  percentile(percentile: number): number;
}

const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e3) / 1e3;

/**
 * The histogram's figures in milliseconds (µs precision); zeros for an empty one (its mean is NaN).
 * The monitor records the whole time between two of its timer's turns, its own interval included:
 * `intervalMs` is taken off, so that a loop never held reads about 0, not about the interval.
 */
export function loopDelayOf(histogram: NanosecondHistogram, intervalMs = 0): LoopDelay {
  if (histogram.count === 0) return { samples: 0, meanMs: 0, p50Ms: 0, p99Ms: 0, p999Ms: 0, maxMs: 0 };
  const beyond = (nanoseconds: number) => Math.max(0, ms(nanoseconds - intervalMs * 1e6));
  return {
    samples: histogram.count,
    meanMs: beyond(histogram.mean),
    p50Ms: beyond(histogram.percentile(50)),
    p99Ms: beyond(histogram.percentile(99)),
    p999Ms: beyond(histogram.percentile(99.9)),
    maxMs: beyond(histogram.max),
  };
}

/** The messages between the benchmark and the preload. */
export type LoopDelayRequest = { readonly loopDelay: "reset" } | { readonly loopDelay: "read" };
export interface LoopDelayAnswer {
  readonly loopDelayAnswer: LoopDelay;
}

export const isLoopDelayRequest = (message: unknown): message is LoopDelayRequest =>
  typeof message === "object" &&
  message !== null &&
  ((message as { loopDelay?: unknown }).loopDelay === "reset" ||
    (message as { loopDelay?: unknown }).loopDelay === "read");

const isLoopDelayAnswer = (message: unknown): message is LoopDelayAnswer =>
  typeof message === "object" && message !== null && "loopDelayAnswer" in message;

/** The benchmark's side: a child started with the preload and an IPC channel (support/processes.ts). */
export interface LoopDelayProbe {
  /** Starts the child's histogram over (before a measured load). */
  reset(): void;
  /** The child's histogram since the last reset; undefined if it did not answer within a few seconds. */
  read(): Promise<LoopDelay | undefined>;
}

export function loopDelayProbe(child: ChildProcess): LoopDelayProbe {
  const connected = () => child.connected && child.exitCode === null;
  return {
    reset() {
      if (connected()) child.send({ loopDelay: "reset" } satisfies LoopDelayRequest);
    },
    read() {
      if (!connected()) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const finish = (value: LoopDelay | undefined) => {
          clearTimeout(timer);
          child.off("message", onMessage);
          resolve(value);
        };
        const onMessage = (message: unknown) => {
          if (isLoopDelayAnswer(message)) finish(message.loopDelayAnswer);
        };
        // A busy machine can hold the child a while; past this the figure is left out, not waited for.
        const timer = setTimeout(() => finish(undefined), 5000);
        child.on("message", onMessage);
        child.send({ loopDelay: "read" } satisfies LoopDelayRequest);
      });
    },
  };
}
