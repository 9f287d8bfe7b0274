// Builds a checkout only when its sources changed since its last build, or a file it built is missing,
// saying so: what `npm start` and the `vidrows` command run first, so that a start costs the build only
// when there is something to build.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

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

/** Where the build writes: the server's, the client package's and the dashboard's built files. */
export const buildOutputs = ["dist", "clients/typescript/dist", "dashboard/dist"];

/** Written by the build when it succeeds; its time is the build's, and it lists the files the build left. */
export const buildStamp = "dist/.build-stamp";

/**
 * The TypeScript compiler's record of its last build. It trusts the record over the folder: a file deleted
 * from dist/ is not written again while the record says it was, so a build that must restore files goes
 * without it.
 */
export const compilerRecord = "dist/.tsbuildinfo";

/** The latest modification time under `path` (a file or a folder), or 0 when it does not exist. */
function latestChange(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, latestChange(join(path, entry)));
  return latest;
}

/** Every file under `folder` (relative to `root`, with `/`), or none when it does not exist. */
function filesUnder(root, folder) {
  const path = join(root, folder);
  if (!existsSync(path)) return [];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(root, join(entry.parentPath ?? entry.path, entry.name))
        .split("\\")
        .join("/"),
    );
}

/** The files the last build left, as its stamp lists them; undefined for a stamp without the list. */
function builtFiles(stamp) {
  try {
    const { outputs } = JSON.parse(readFileSync(stamp, "utf8"));
    return Array.isArray(outputs) ? outputs : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why `root`'s build must run before it starts, or undefined when it need not: no build yet, a file the
 * last build left is missing (a deleted dist/ folder, the dashboard's build removed), or a source changed
 * after it. An installed package (no `src/`) has nothing to build and never needs to.
 */
export function whyBuild(root) {
  if (!existsSync(join(root, "src"))) return undefined;
  const stamp = join(root, buildStamp);
  if (!existsSync(stamp)) return "there is no build yet";
  const outputs = builtFiles(stamp);
  if (outputs === undefined) return "the last build did not list its files";
  const missing = outputs.find((file) => !existsSync(join(root, file)));
  if (missing !== undefined) return `a built file is missing (${missing})`;
  const builtAt = statSync(stamp).mtimeMs;
  if (buildInputs.some((input) => latestChange(join(root, input)) > builtAt))
    return "the sources changed after the last build";
  return undefined;
}

/** Whether `root` is a checkout whose build is missing, incomplete, or older than a source. */
export function buildIsStale(root) {
  return whyBuild(root) !== undefined;
}

/** Marks `root`'s build as done now, listing the files it left (the last step of `npm run build`). */
export function stampBuild(root) {
  const stamp = join(root, buildStamp);
  mkdirSync(dirname(stamp), { recursive: true });
  const outputs = buildOutputs
    .flatMap((folder) => filesUnder(root, folder))
    .filter((file) => file !== buildStamp);
  writeFileSync(stamp, `${JSON.stringify({ built_at: new Date().toISOString(), outputs })}\n`);
}

/**
 * Runs `npm run build` in `root` when it must (see `whyBuild`), its output on standard error (standard
 * output belongs to the command that follows, which may print JSON). Answers false when the build failed.
 */
export function buildIfStale(root, log = (line) => process.stderr.write(`${line}\n`)) {
  const reason = whyBuild(root);
  if (reason === undefined) return true;
  log(`vidrows: building, since ${reason} (about a minute the first time)...`);
  // Without its record, the compiler writes every file again, the missing ones included.
  if (!reason.startsWith("the sources")) rmSync(join(root, compilerRecord), { force: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["run", "build", "--silent"], { cwd: root, stdio: ["ignore", 2, 2] });
  if (result.status !== 0) {
    log(`vidrows: the build failed (${result.error?.message ?? `exit code ${result.status}`}); see above.`);
    return false;
  }
  log("vidrows: built.");
  return true;
}
