// Prints the hot spots of a `--cpu-prof` profile: the functions with the most self time, and the most
// total time (self plus callees), so a run with --profile can be read without a browser.
import { areaShares, type ProfileNode, profileAreas, readProfile } from "./profile-areas.js";

const [path, topArg, skipArg] = process.argv.slice(2);
if (!path) {
  process.stderr.write(
    "usage: node dist/bench/bench/support/profile-summary.js <file.cpuprofile> [top] [skip seconds]\n",
  );
  process.exit(2);
}
const top = Number(topArg ?? 25);
// Piped into `head`, the reader may go away before the end: that is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
// Skipping the first seconds leaves start-up (module loading, schema compiling) out of a server's profile.
const skipUs = Number(skipArg ?? 0) * 1e6;
const profile = readProfile(path);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const selfMs = new Map<number, number>();
let elapsedUs = 0;
profile.samples.forEach((id, i) => {
  const deltaUs = profile.timeDeltas[i] ?? 0;
  elapsedUs += deltaUs;
  if (elapsedUs >= skipUs) selfMs.set(id, (selfMs.get(id) ?? 0) + deltaUs / 1000);
});
const total = [...selfMs.values()].reduce((a, b) => a + b, 0);

const label = (node: ProfileNode) => {
  // Library files keep their package's name (pg-protocol's dist/parser.js is not ours); ours start at dist/.
  const file = node.callFrame.url.replace(/^file:\/\//, "");
  const url = file.includes("/node_modules/")
    ? file.replace(/.*\/node_modules\//, "~/")
    : file.replace(/.*\/dist\//, "dist/");
  const where = url ? ` ${url}:${node.callFrame.lineNumber + 1}` : "";
  return `${node.callFrame.functionName || "(anonymous)"}${where}`;
};

const selfByLabel = new Map<string, number>();
const totalByLabel = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const node = byId.get(id);
  if (!node) continue;
  selfByLabel.set(label(node), (selfByLabel.get(label(node)) ?? 0) + ms);
  // Each frame on the stack gets the sample once, however often it recurs.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at);
    if (!frame) break;
    const name = label(frame);
    if (seen.has(name)) continue;
    seen.add(name);
    totalByLabel.set(name, (totalByLabel.get(name) ?? 0) + ms);
  }
}

const print = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title} (of ${total.toFixed(0)} ms sampled)\n`);
  for (const [name, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * ms) / total).toFixed(1).padStart(6)}%  ${name}\n`);
  }
};
const busy = profileAreas(profile, skipUs / 1e6);
const busyMs = [...busy.values()].reduce((a, b) => a + b, 0);
process.stdout.write(
  `\nBusy time by area (of ${busyMs.toFixed(0)} ms busy, idle left out; wall time: a socket write's share includes waits for the CPU after waking another process)\n`,
);
for (const { area, share } of areaShares(busy)) {
  process.stdout.write(`${(100 * share).toFixed(1).padStart(6)}%  ${area}\n`);
}
print("Self time", selfByLabel);
print("Total time", totalByLabel);
