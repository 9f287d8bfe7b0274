// `npm start` and the `vidrows` command build a checkout only when its sources changed since its last build.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { buildIfStale, buildIsStale, stampBuild } from "../../scripts/build-if-stale.mjs";

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
});
