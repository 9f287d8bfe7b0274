// @vidrows/client as a user gets it: `npm pack` (which rebuilds dist/ through prepack), the tarball installed
// offline into a fresh folder, the README's quickstart.mjs copied as it stands and run against a real server
// (fake model, caption folder), the installed types resolved by tsc, and the installed `vidrows-client` bin.
// The package is packed from a copy, so that rebuilding dist/ never disturbs tests using this one.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPipelineServer, type PipelineServer } from "../../../test/support/pipeline.js";

const run = promisify(execFile);
const packageDir = new URL("..", import.meta.url).pathname;
const repoRoot = new URL("../../..", import.meta.url).pathname;
const readme = readFileSync(join(packageDir, "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };

/** The README's runnable quick start: the ```js block that starts with `// quickstart.mjs`. */
function readmeQuickstart(): string {
  const block = /```js\n(\/\/ quickstart\.mjs\n[\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("The README has no ```js block starting with // quickstart.mjs");
  return block;
}

/** npm without the network: everything here is local, so a lookup would be a bug. */
const npm = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  run("npm", [...args, "--offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });

describe("@vidrows/client packed, installed and used as the README says", () => {
  let work: string;
  let app: string;
  let server: PipelineServer;
  let packed: { filename: string; files: { path: string }[] };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "vidrows-pack-"));
    const copy = join(work, "package");
    for (const entry of [
      "package.json",
      "README.md",
      "LICENSE",
      "tsconfig.lib.json",
      "tsconfig.cli.json",
      "src",
      "bin",
    ]) {
      cpSync(join(packageDir, entry), join(copy, entry), { recursive: true });
    }
    // The build tools (tsc, @types/node) from the repository, as the workspace has them.
    symlinkSync(join(repoRoot, "node_modules"), join(copy, "node_modules"), "dir");
    const { stdout } = await npm(["pack", "--json", "--pack-destination", work], copy);
    packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;

    app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    await npm(["install", join(work, packed.filename)], app);

    server = await startPipelineServer("sqlite");
    server.addCaptions("aqz-KE-bpKQ", 30);
    server.addCaptions("dQw4w9WgXcQ", 30);
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("packs the built JavaScript, its types, the README and LICENSE, and nothing else", () => {
    const files = packed.files.map((file) => file.path).sort();
    for (const needed of [
      "LICENSE",
      "README.md",
      "package.json",
      "dist/index.js",
      "dist/index.d.ts",
      "bin/vidrows-client.js",
      "dist/cli/run-client-cli.js",
      "dist/cli/run-client-cli.d.ts",
    ]) {
      expect(files).toContain(needed);
    }
    expect(
      files.filter(
        (file) =>
          !file.startsWith("dist/") &&
          !["LICENSE", "README.md", "package.json", "bin/vidrows-client.js"].includes(file),
      ),
    ).toEqual([]);
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    const installed = JSON.parse(
      readFileSync(join(app, "node_modules/@vidrows/client/package.json"), "utf8"),
    );
    expect(installed).toMatchObject({ license: "MIT", version: manifest.version });
    expect(installed.private).toBeUndefined();
    expect(installed.dependencies ?? {}).toEqual({});
  });

  it("runs the README's quickstart.mjs from the installed package and prints the rows", async () => {
    writeFileSync(join(app, "quickstart.mjs"), readmeQuickstart());
    const { key } = await server.workspace();
    const { stdout, stderr } = await run(process.execPath, ["quickstart.mjs"], {
      cwd: app,
      env: { ...process.env, VIDROWS_API_KEY: key, VIDROWS_BASE_URL: server.url },
    });
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^submitted job_\w+\n/);
    expect(stdout).toContain("2 done, 0 failed of 2\n");
    expect(stdout).toContain("settled: done\n");
    expect(stdout).toContain(`aqz-KE-bpKQ ${JSON.stringify([{ product: "widget", price: 5 }])}\n`);
    expect(stdout).toContain(`dQw4w9WgXcQ ${JSON.stringify([{ product: "widget", price: 5 }])}\n`);
  });

  it("gives TypeScript the installed package's types, for the client and for the CLI entry", async () => {
    writeFileSync(
      join(app, "check.ts"),
      [
        'import { Vidrows, VidrowsError, type JobRead } from "@vidrows/client";',
        'import { runClientCli } from "@vidrows/client/cli";',
        'const vr = new Vidrows({ apiKey: "vr_test_x" });',
        'export const read: Promise<JobRead> = vr.jobs.takeRows("job_1");',
        'export const code: Promise<number> = runClientCli(["--version"]);',
        'export const isError = (e: unknown) => e instanceof VidrowsError && e.code === "job_not_found";',
        "// @ts-expect-error: a submission needs its schema",
        'vr.jobs.submit({ videos: ["dQw4w9WgXcQ"] });',
        "",
      ].join("\n"),
    );
    const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
    const options = [
      "--noEmit",
      "--strict",
      "--skipLibCheck",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
    ];
    const types = [
      "--types",
      "node",
      "--typeRoots",
      join(repoRoot, "node_modules/@types"),
      "--target",
      "es2022",
    ];
    const checked = await run(process.execPath, [tsc, ...options, ...types, "check.ts"], { cwd: app }).catch(
      (error: { stdout: string }) => error,
    );
    expect("stdout" in checked ? checked.stdout : "").toBe("");
  });

  it("runs the installed vidrows-client through npx: --version and a command against the server", async () => {
    // As a user types it; offline, so npx can only find the installed bin, never fetch one.
    const offline = { ...process.env, npm_config_offline: "true" };
    const { stdout } = await run("npx", ["vidrows-client", "--version"], { cwd: app, env: offline });
    expect(stdout).toBe(`${manifest.version}\n`);
    const { key } = await server.workspace();
    const listed = await run("npx", ["vidrows-client", "--json", "jobs", "list"], {
      cwd: app,
      env: { ...offline, VIDROWS_API_KEY: key, VIDROWS_BASE_URL: server.url },
    });
    expect(JSON.parse(listed.stdout).pagination.total).toBe(0);
  });
});
