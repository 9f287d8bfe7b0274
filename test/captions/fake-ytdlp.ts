// A fake yt-dlp for the captions tests: a small Node script written into a temporary folder that prints the
// recorded output scripted for the video it is asked about, and remembers how it was called.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFakeExecutable } from "../support/fake-executable.js";

export interface Scenario {
  readonly stdout?: string;
  readonly stderr?: string;
  readonly exitCode?: number;
  /**
   * The second run (--load-info-json: write the chosen track): by default, like yt-dlp, it downloads the
   * track's URL from the info and writes `<output stem>.<key>.<format>`; these replace what it prints.
   */
  /** Pages saved into the working folder under --write-pages, by file name, as yt-dlp saves player answers. */
  readonly pages?: Record<string, string>;
  readonly subtitleRun?: {
    readonly stderr?: string;
    readonly exitCode?: number;
    readonly writeNothing?: boolean;
  };
  /** Never ends (and starts a grandchild that never ends either), like a yt-dlp stuck on a stalled socket. */
  readonly hang?: boolean;
}

export interface FakeYtDlp {
  readonly folder: string;
  /** The executable: point VIDROWS_YTDLP_PATH here. */
  readonly path: string;
  /** What to print for each video id; "*" for any other. */
  script(scenarios: Record<string, Scenario>): void;
  /** Every command line it was run with, in order. */
  calls(): string[][];
  /** The proxy each run was handed in its environment (https_proxy), in order; null for none. */
  proxies(): (string | null)[];
  /** The pid a run for the video wrote, and its grandchild's, once written. */
  pid(videoId: string, which?: "child" | "grandchild"): number | null;
  remove(): void;
}

// CommonJS, as Node reads a file without an extension and without a package.json beside it.
const program = `
const fs = require("node:fs");
const path = require("node:path");
const { spawn } = require("node:child_process");
const args = process.argv.slice(2);
fs.appendFileSync(path.join(__dirname, "calls.jsonl"), JSON.stringify(args) + "\\n");
fs.appendFileSync(path.join(__dirname, "proxies.jsonl"), JSON.stringify(process.env.https_proxy || null) + "\\n");
const scenarios0 = JSON.parse(fs.readFileSync(path.join(__dirname, "scenarios.json"), "utf8"));
const value = (flag) => args[args.indexOf(flag) + 1];
if (args.includes("--load-info-json")) {
  // The subtitle run: the track vidrows chose, from the info the first run printed.
  const info = JSON.parse(fs.readFileSync(value("--load-info-json"), "utf8"));
  const run = (scenarios0[info.id] || scenarios0["*"]).subtitleRun || {};
  if (run.stderr) process.stderr.write(run.stderr);
  if (run.exitCode || run.writeNothing) process.exit(run.exitCode || 0);
  const tracks = (args.includes("--write-auto-subs") ? info.automatic_captions : info.subtitles) || {};
  const pattern = new RegExp("^(?:" + value("--sub-langs") + ")$", "i");
  const format = value("--sub-format");
  const key = Object.keys(tracks).find((candidate) => pattern.test(candidate));
  const entry = key === undefined ? undefined : tracks[key].find((candidate) => candidate.ext === format);
  if (entry === undefined) {
    process.stderr.write("WARNING: " + value("--sub-langs") + " subtitles not available for " + info.id + "\\n");
    process.exit(0);
  }
  fetch(entry.url).then((answer) => answer.text()).then((text) => {
    fs.writeFileSync(value("--output").replace("%(ext)s", key + "." + format), text);
    process.exit(0);
  });
  return;
}
const id = new URL(args[args.length - 1]).searchParams.get("v");
fs.writeFileSync(path.join(__dirname, "pid-child-" + id), String(process.pid));
const scenarios = JSON.parse(fs.readFileSync(path.join(__dirname, "scenarios.json"), "utf8"));
const scenario = scenarios[id] || scenarios["*"];
if (scenario.pages && args.includes("--write-pages")) {
  for (const [name, text] of Object.entries(scenario.pages)) fs.writeFileSync(path.join(process.cwd(), name), text);
}
if (scenario.hang) {
  const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  fs.writeFileSync(path.join(__dirname, "pid-grandchild-" + id), String(grandchild.pid));
  setInterval(() => {}, 1000);
} else {
  if (scenario.stderr) process.stderr.write(scenario.stderr);
  process.stdout.write(scenario.stdout || "", () => process.exit(scenario.exitCode || 0));
}
`;

export function createFakeYtDlp(): FakeYtDlp {
  const fake = createFakeExecutable("vidrows-fake-yt-dlp-", program);
  const { folder } = fake;
  writeFileSync(join(folder, "scenarios.json"), "{}");
  return {
    folder,
    path: fake.path,
    script: (scenarios) => writeFileSync(join(folder, "scenarios.json"), JSON.stringify(scenarios)),
    calls: fake.calls,
    proxies: () => {
      const file = join(folder, "proxies.jsonl");
      if (!existsSync(file)) return [];
      const lines = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "");
      return lines.map((line) => JSON.parse(line) as string | null);
    },
    pid: (videoId, which = "child") => {
      const file = join(folder, `pid-${which}-${videoId}`);
      return existsSync(file) ? Number(readFileSync(file, "utf8")) : null;
    },
    remove: fake.remove,
  };
}

/** Whether a process has ended: no such process, or a zombie that nobody has reaped yet. */
export function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}
