// What holds a process's event loop for long: the stretches of a `--cpu-prof` profile in which one
// stack ran sample after sample, longest first, grouped by that stack. A request that arrives during
// one waits for all of it; a profile's shares (profile-areas.ts) say where the time went on average,
// these say what the tail waits behind. Run on a profile (`npm run bench -- --profile` writes them):
//
//   node dist/bench/bench/support/long-stretches.js bench/results/profiles/<name>.cpuprofile [min ms]
import { pathToFileURL } from "node:url";
import { type CpuProfile, type ProfileNode, readProfile } from "./profile-areas.js";

export interface Stretch {
  /** The stack, innermost frame first: `function (file:line)`, files shortened to their last two parts. */
  readonly stack: string;
  /** How many stretches of at least the minimum this stack ran for. */
  readonly count: number;
  readonly longestMs: number;
  readonly totalMs: number;
}

const shortFile = (url: string) => url.split("/").slice(-2).join("/");
const frameName = (node: ProfileNode) =>
  `${node.callFrame.functionName || "(anonymous)"}${node.callFrame.url ? ` (${shortFile(node.callFrame.url)}:${node.callFrame.lineNumber + 1})` : ""}`;

/** Samples that are no work of the process's own: the loop waiting, or the profiler's own frames. */
const notWork = new Set(["(idle)", "(program)", "(root)"]);

/**
 * Runs of consecutive samples on one stack lasting at least `minMs`, grouped by stack (its `depth`
 * innermost frames), longest first. Time between two samples counts for the later one, as the
 * profiler means it. Leaves out the first `skipSeconds` (start-up).
 */
export function longStretches(profile: CpuProfile, minMs: number, depth = 6, skipSeconds = 0): Stretch[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stackOf = (id: number) => {
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined && frames.length < depth; at = parent.get(at)) {
      const node = byId.get(at);
      if (node && node.callFrame.functionName !== "(root)") frames.push(frameName(node));
    }
    return frames.join(" < ");
  };
  const found = new Map<string, { count: number; longestMs: number; totalMs: number }>();
  const close = (id: number | undefined, ms: number) => {
    if (id === undefined || ms < minMs) return;
    const name = byId.get(id)?.callFrame.functionName ?? "";
    if (notWork.has(name)) return;
    const stack = stackOf(id);
    const entry = found.get(stack) ?? { count: 0, longestMs: 0, totalMs: 0 };
    entry.count++;
    entry.longestMs = Math.max(entry.longestMs, ms);
    entry.totalMs += ms;
    found.set(stack, entry);
  };
  let elapsedUs = 0;
  let runId: number | undefined;
  let runMs = 0;
  profile.samples.forEach((id, i) => {
    const deltaUs = profile.timeDeltas[i] ?? 0;
    elapsedUs += deltaUs;
    if (elapsedUs < skipSeconds * 1e6) return;
    if (id === runId) {
      runMs += deltaUs / 1000;
      return;
    }
    close(runId, runMs);
    runId = id;
    runMs = deltaUs / 1000;
  });
  close(runId, runMs);
  return [...found.entries()]
    .map(([stack, entry]) => ({ stack, ...entry }))
    .sort((a, b) => b.longestMs - a.longestMs || b.totalMs - a.totalMs);
}

const round = (ms: number) => Math.round(ms * 10) / 10;

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [path, min = "2"] = process.argv.slice(2);
  if (!path) throw new Error("usage: long-stretches.js <profile.cpuprofile> [min ms]");
  for (const stretch of longStretches(readProfile(path), Number(min), 6, 1).slice(0, 30))
    process.stdout.write(
      `${round(stretch.longestMs)} ms longest, ${stretch.count} x, ${round(stretch.totalMs)} ms in all: ${stretch.stack}\n`,
    );
}
