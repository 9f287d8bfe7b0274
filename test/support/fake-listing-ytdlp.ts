// A fake yt-dlp for listings: a small Node script that answers `--flat-playlist --dump-single-json` for the
// address it is given with a recorded listing, cut at `--playlist-end` as yt-dlp cuts it, or with the error
// lines and exit code scripted for that address, at once or once released; it remembers every command line.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFakeExecutable } from "./fake-executable.js";

export interface ListingScenario {
  /** The listing yt-dlp prints (a recorded `_type: "playlist"` document, or a single video's info). */
  readonly listing?: object;
  readonly stderr?: string;
  readonly exitCode?: number;
  /** Never ends, like a yt-dlp stuck on a stalled socket; writes its pid to `pid` first. */
  readonly hang?: boolean;
  /** Answers `listing` only once `release(heldUntil)` is called (at most 60 s), like a slow listing. */
  readonly heldUntil?: string;
}

export interface FakeListingYtDlp {
  /** The executable: point VIDROWS_YTDLP_PATH (config.ytDlpPath) here. */
  readonly path: string;
  /** What to answer for each address yt-dlp is given; "*" for any other. */
  script(scenarios: Record<string, ListingScenario>): void;
  /** Every command line it was run with, in order. */
  calls(): string[][];
  /** The proxy each run was handed in its environment (https_proxy), in order; null for none. */
  proxies(): (string | null)[];
  /** Lets the runs held until `name` answer. */
  release(name: string): void;
  /** The pid of the last run that hung, once it has started. */
  hungPid(): number | null;
  remove(): void;
}

const program = `
const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
fs.appendFileSync(path.join(__dirname, "calls.jsonl"), JSON.stringify(args) + "\\n");
fs.appendFileSync(path.join(__dirname, "proxies.jsonl"), JSON.stringify(process.env.https_proxy || null) + "\\n");
const scenarios = JSON.parse(fs.readFileSync(path.join(__dirname, "scenarios.json"), "utf8"));
const url = args[args.length - 1];
const scenario = scenarios[url] || scenarios["*"] || { stderr: "ERROR: Unsupported URL: " + url + "\\n", exitCode: 1 };
function answer() {
  if (scenario.stderr) process.stderr.write(scenario.stderr);
  let listing = scenario.listing;
  const end = args.indexOf("--playlist-end");
  if (listing && Array.isArray(listing.entries) && end >= 0) {
    listing = { ...listing, entries: listing.entries.slice(0, Number(args[end + 1])) };
  }
  process.stdout.write(listing ? JSON.stringify(listing) : "", () => process.exit(scenario.exitCode || 0));
}
if (scenario.heldUntil) {
  const released = path.join(__dirname, "released-" + scenario.heldUntil);
  const since = Date.now();
  const look = setInterval(() => {
    if (fs.existsSync(released) || Date.now() - since > 60000) {
      clearInterval(look);
      answer();
    }
  }, 20);
} else if (scenario.hang) {
  fs.writeFileSync(path.join(__dirname, "hung-pid"), String(process.pid));
  setInterval(() => {}, 1000);
} else {
  answer();
}
`;

export function createFakeListingYtDlp(): FakeListingYtDlp {
  const fake = createFakeExecutable("vidrows-fake-listing-", program);
  const { folder } = fake;
  writeFileSync(join(folder, "scenarios.json"), "{}");
  return {
    path: fake.path,
    script: (scenarios) => writeFileSync(join(folder, "scenarios.json"), JSON.stringify(scenarios)),
    calls: fake.calls,
    release: (name) => writeFileSync(join(folder, `released-${name}`), ""),
    proxies: () => {
      const file = join(folder, "proxies.jsonl");
      if (!existsSync(file)) return [];
      const lines = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "");
      return lines.map((line) => JSON.parse(line) as string | null);
    },
    hungPid: () => {
      const file = join(folder, "hung-pid");
      return existsSync(file) ? Number(readFileSync(file, "utf8")) : null;
    },
    remove: fake.remove,
  };
}

/** A recorded listing from test/fixtures/listings/. */
export function recordedListing(
  name: string,
): { entries: Record<string, unknown>[] } & Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../fixtures/listings/${name}`, import.meta.url), "utf8"));
}
