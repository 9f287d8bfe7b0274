// The `vidrows-client` launcher (bin/vidrows-client.js) in a checkout where nothing is built yet: it
// exists before the build (so npm links it at install), and says what to run instead of failing on a
// missing module.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const launcher = new URL("../bin/vidrows-client.js", import.meta.url).pathname;

describe("the vidrows-client launcher", () => {
  const unbuilt = mkdtempSync(join(tmpdir(), "vidrows-unbuilt-"));
  afterAll(() => rmSync(unbuilt, { recursive: true, force: true }));

  it("in a package without dist/, exits 1 saying to build", async () => {
    cpSync(launcher, join(unbuilt, "bin", "vidrows-client.js"));
    const failed = await run(process.execPath, [
      join(unbuilt, "bin", "vidrows-client.js"),
      "--version",
    ]).catch((error: { code: number; stderr: string }) => error);
    expect("code" in failed && failed.code).toBe(1);
    expect("stderr" in failed && failed.stderr).toContain("run `npm run build`");
  });

  it("in the built package, runs the commands", async () => {
    const { stdout } = await run(process.execPath, [launcher, "--version"]);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
