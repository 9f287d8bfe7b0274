// `npm start` and the `vidrows` command build a checkout only when its sources changed since its last build
// or a file that build left is missing.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { buildIfStale, buildIsStale, stampBuild, whyBuild } from "../../scripts/build-if-stale.mjs";

const stampScript = fileURLToPath(new URL("../../scripts/stamp-build.mjs", import.meta.url));
const roots: string[] = [];

/** A checkout-shaped folder whose `npm run build` writes `built.txt` and stamps the build. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), "vidrows-checkout-"));
  roots.push(root);
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "app.ts"), "export {};\n");
  const build = `node -e "require('fs').writeFileSync('built.txt', 'x')" && node ${JSON.stringify(stampScript)}`;
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "checkout", scripts: { build } }));
  return root;
}

/** Moves a file's modification time `seconds` into the future. */
function touchLater(path: string, seconds: number) {
  const later = new Date(Date.now() + seconds * 1000);
  utimesSync(path, later, later);
}

/**
 * A build that behaves as the real one where it matters: like the TypeScript compiler, it writes the
 * server's files only when its record (dist/.tsbuildinfo) is absent, and it writes the dashboard's whole.
 */
const incrementalBuild = `
const fs = require("fs");
fs.mkdirSync("dist/jobs", { recursive: true });
if (!fs.existsSync("dist/.tsbuildinfo")) {
  fs.writeFileSync("dist/cli.js", "cli");
  fs.writeFileSync("dist/jobs/read.js", "read");
  fs.writeFileSync("dist/.tsbuildinfo", "{}");
}
fs.mkdirSync("dashboard/dist", { recursive: true });
fs.writeFileSync("dashboard/dist/index.html", "page");
`;

/** A checkout whose `npm run build` is `incrementalBuild`, then the stamp, built once. */
function builtCheckout(): string {
  const root = checkout();
  writeFileSync(join(root, "build.cjs"), incrementalBuild);
  const build = `node build.cjs && node ${JSON.stringify(stampScript)}`;
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "checkout", scripts: { build } }));
  expect(buildIfStale(root, () => {})).toBe(true);
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("building a checkout only when stale", () => {
  it("is stale with no build, fresh once stamped, stale again when a source changes after", () => {
    const root = checkout();
    expect(buildIsStale(root)).toBe(true);
    stampBuild(root);
    expect(buildIsStale(root)).toBe(false);
    touchLater(join(root, "src", "app.ts"), 60);
    expect(buildIsStale(root)).toBe(true);
  });

  it("finds a change deep in a source folder, and in the package's files", () => {
    const root = checkout();
    mkdirSync(join(root, "src", "deep", "deeper"), { recursive: true });
    writeFileSync(join(root, "src", "deep", "deeper", "file.ts"), "");
    stampBuild(root);
    touchLater(join(root, "src", "deep", "deeper", "file.ts"), 60);
    expect(buildIsStale(root)).toBe(true);
    stampBuild(root);
    touchLater(join(root, "package.json"), 120);
    expect(buildIsStale(root)).toBe(true);
  });

  it("never builds an installed package (no sources to build from)", () => {
    const root = checkout();
    rmSync(join(root, "src"), { recursive: true });
    expect(buildIsStale(root)).toBe(false);
  });

  it("runs the build when stale, saying so on standard error's log, and not again until a source changes", () => {
    const root = checkout();
    const said: string[] = [];
    expect(buildIfStale(root, (line) => said.push(line))).toBe(true);
    expect(existsSync(join(root, "built.txt"))).toBe(true);
    expect(said[0]).toMatch(/^vidrows: building/);
    expect(said.at(-1)).toBe("vidrows: built.");

    rmSync(join(root, "built.txt"));
    said.length = 0;
    expect(buildIfStale(root, (line) => said.push(line))).toBe(true);
    expect(existsSync(join(root, "built.txt"))).toBe(false);
    expect(said).toEqual([]);
  });

  it("reports a failed build and answers false, leaving the build stale", () => {
    const root = checkout();
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ name: "checkout", scripts: { build: "exit 3" } }),
    );
    const said: string[] = [];
    expect(buildIfStale(root, (line) => said.push(line))).toBe(false);
    expect(said.at(-1)).toMatch(/^vidrows: the build failed \(exit code 3\)/);
    expect(buildIsStale(root)).toBe(true);
  });

  it("lists in the stamp every file the build left", () => {
    const root = builtCheckout();
    const stamp = JSON.parse(readFileSync(join(root, "dist", ".build-stamp"), "utf8"));
    expect([...stamp.outputs].sort()).toEqual([
      "dashboard/dist/index.html",
      "dist/.tsbuildinfo",
      "dist/cli.js",
      "dist/jobs/read.js",
    ]);
    expect(whyBuild(root)).toBeUndefined();
  });

  it("builds again when a built file is missing, restoring it even where the compiler's record says it was written", () => {
    const root = builtCheckout();
    rmSync(join(root, "dist", "jobs"), { recursive: true });
    expect(whyBuild(root)).toBe("a built file is missing (dist/jobs/read.js)");
    const said: string[] = [];
    expect(buildIfStale(root, (line) => said.push(line))).toBe(true);
    expect(said[0]).toBe(
      "vidrows: building, since a built file is missing (dist/jobs/read.js) (about a minute the first time)...",
    );
    expect(readFileSync(join(root, "dist", "jobs", "read.js"), "utf8")).toBe("read");
    expect(whyBuild(root)).toBeUndefined();

    rmSync(join(root, "dashboard", "dist"), { recursive: true });
    expect(whyBuild(root)).toBe("a built file is missing (dashboard/dist/index.html)");
    expect(buildIfStale(root, () => {})).toBe(true);
    expect(existsSync(join(root, "dashboard", "dist", "index.html"))).toBe(true);
  });

  it("builds again after a stamp that does not list the files (from an earlier vidrows)", () => {
    const root = builtCheckout();
    writeFileSync(join(root, "dist", ".build-stamp"), `${new Date().toISOString()}\n`);
    rmSync(join(root, "dist", "cli.js"));
    expect(whyBuild(root)).toBe("the last build did not list its files");
    expect(buildIfStale(root, () => {})).toBe(true);
    expect(existsSync(join(root, "dist", "cli.js"))).toBe(true);
  });
});
