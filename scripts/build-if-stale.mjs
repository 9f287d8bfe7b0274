// Builds a checkout only when its sources changed since its last build, saying so: what `npm start` and
// the `vidrows` command run first, so that a start costs the build only when there is something to build.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** What the build reads: a change to any of these makes the built files stale. */
export const buildInputs = [
  "src",
  "clients/typescript/src",
  "dashboard/src",
  "dashboard/public",
  "dashboard/index.html",
  "dashboard/vite.config.ts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** Written by the build when it succeeds; its time is the build's. */
export const buildStamp = "dist/.build-stamp";

/** The latest modification time under `path` (a file or a folder), or 0 when it does not exist. */
function latestChange(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, latestChange(join(path, entry)));
  return latest;
}

/**
 * Whether `root` is a checkout whose build is missing or older than a source. An installed package
 * (no `src/`) has nothing to build and is never stale.
 */
export function buildIsStale(root) {
  if (!existsSync(join(root, "src"))) return false;
  const stamp = join(root, buildStamp);
  if (!existsSync(stamp)) return true;
  const builtAt = statSync(stamp).mtimeMs;
  return buildInputs.some((input) => latestChange(join(root, input)) > builtAt);
}

/** Marks `root`'s build as done now (the last step of `npm run build`). */
export function stampBuild(root) {
  const stamp = join(root, buildStamp);
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

/**
 * Runs `npm run build` in `root` when its build is stale, its output on standard error (standard output
 * belongs to the command that follows, which may print JSON). Answers false when the build failed.
 */
export function buildIfStale(root, log = (line) => process.stderr.write(`${line}\n`)) {
  if (!buildIsStale(root)) return true;
  log("vidrows: building, since the sources changed after the last build (about a minute the first time)...");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["run", "build", "--silent"], { cwd: root, stdio: ["ignore", 2, 2] });
  if (result.status !== 0) {
    log(`vidrows: the build failed (${result.error?.message ?? `exit code ${result.status}`}); see above.`);
    return false;
  }
  log("vidrows: built.");
  return true;
}
