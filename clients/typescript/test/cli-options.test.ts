// The client CLI's command line itself: --version, global options before the command as well as after it,
// help laid out in aligned columns for every command, and `jobs rows --out` leaving no file behind when
// nothing was taken or the command failed, and telling rows held by another read from rows taken (against
// the real server, SQLite and PostgreSQL).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { stallAfterFirstChunk } from "../../../test/support/hostile-clients.js";
import { bigRowCount, hold, useJobsApi, waitFor } from "../../../test/support/jobs-api.js";
import { clientCommands } from "../src/cli/run-client-cli.js";
import { printed, runCli } from "./cli-support.js";

const nowhere = "http://127.0.0.1:1";
const packageVersion = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** The lines of a help text's option sections (`Options:`, `Global options:`), without their titles. */
function optionLines(help: string): string[] {
  return help
    .split("\n\n")
    .filter((section) => /^(Global options|Options):\n/.test(section))
    .flatMap((section) => section.split("\n").slice(1))
    .filter((line) => line.startsWith("  "));
}

describe("vidrows-client --version and help layout", () => {
  it("prints the package's version for --version, -v and -V, wherever they stand", async () => {
    expect(packageVersion).toMatch(/^\d+\.\d+\.\d+/);
    for (const argv of [
      ["--version"],
      ["-V"],
      ["-v"],
      ["jobs", "list", "--version"],
      ["--json", "-V"],
      ["usage", "-v"],
    ]) {
      const run = await runCli(nowhere, undefined, argv);
      expect(run, argv.join(" ")).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: "" });
    }
  });

  it("lays every command's options out in one column, wrapped under it, within 100 columns", async () => {
    for (const command of clientCommands) {
      const help = (await runCli(nowhere, undefined, [...command.name.split(" "), "--help"])).stdout;
      const lines = optionLines(help);
      expect(lines.length, command.name).toBeGreaterThanOrEqual(5); // the global options at least
      // Where descriptions start: after the longest flags and two spaces, the same on every line.
      const starts = lines.map((line) => /^ {2}-\S.*? {2,}(?=\S)/.exec(line)?.[0].length);
      const column = Math.max(...starts.filter((start) => start !== undefined));
      for (const line of lines) {
        expect(line.length, `${command.name}: ${line}`).toBeLessThanOrEqual(100);
        if (line.trimStart().startsWith("-")) {
          // An option: its flags, then its description (if any) exactly at the column.
          const start = /^ {2}-\S.*? {2,}(?=\S)/.exec(line)?.[0].length;
          if (start !== undefined) expect(start, `${command.name}: ${line}`).toBe(column);
          else expect(line.length, `${command.name}: ${line}`).toBeLessThan(column);
        } else {
          // A description's next line: indented exactly to the column.
          expect(/^ */.exec(line)![0].length, `${command.name}: ${line}`).toBe(column);
        }
      }
    }
  });

  it("wraps every command's usage and summary within 100 columns, the usage's arguments in one column", async () => {
    for (const command of clientCommands) {
      const help = (await runCli(nowhere, undefined, [...command.name.split(" "), "--help"])).stdout;
      const [usage = "", summary = ""] = help.split("\n\n");
      const lead = `Usage: vidrows-client ${command.name} `;
      const lines = usage.split("\n");
      expect(lines[0]?.startsWith(lead.trimEnd()), command.name).toBe(true);
      for (const line of [...lines, ...summary.split("\n")]) {
        expect(line.length, `${command.name}: ${line}`).toBeLessThanOrEqual(100);
      }
      // Continuation lines share one indent: under the first argument, or 4 when a group is too wide for it.
      const indents = new Set(lines.slice(1).map((line) => /^ */.exec(line)![0].length));
      expect(indents.size, command.name).toBeLessThanOrEqual(1);
      for (const indent of indents) expect([lead.length, 4], command.name).toContain(indent);
      // Nothing lost in the wrapping: the lines joined are the usage as the command gives it.
      expect(lines.map((line) => line.trim()).join(" ")).toBe(`${lead}${command.usage}`.trim());
    }
  });

  it("lists the global options in the program's help, aligned, and says where they go", async () => {
    const help = (await runCli(nowhere, undefined, ["--help"])).stdout;
    expect(help).toContain("Usage: vidrows-client [global options] <command> [options]");
    const lines = optionLines(help);
    expect(lines.map((line) => line.trim().split(/ {2,}/)[0])).toEqual([
      "--api-key KEY",
      "--base-url URL",
      "--json",
      "-h, --help",
      "-v, -V, --version",
    ]);
    const columns = new Set(lines.map((line) => /^ {2}\S.*? {2,}/.exec(line)![0].length));
    expect(columns.size).toBe(1);
  });

  it("refuses a command's own option before the command, saying where it goes", async () => {
    const run = await runCli(nowhere, "k", ["--status", "running", "jobs", "list"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option --status before the command");
    expect(run.stderr).toContain("a command's own options go after it");
  });
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(
    `vidrows-client command lines on ${dialectTitle(dialect)}`,
    () => {
      const { server, videoWithCaptions } = useJobsApi(dialect.name);
      let folder: string;
      beforeEach(() => {
        folder = mkdtempSync(join(tmpdir(), "vidrows-cli-options-"));
      });
      afterEach(() => rmSync(folder, { recursive: true, force: true }));

      it("takes --api-key, --base-url and --json before the command as after it", async () => {
        const { key } = await server().workspace();
        const before = await runCli(nowhere, undefined, [
          "--api-key",
          key,
          `--base-url=${server().url}`,
          "--json",
          "jobs",
          "list",
          "--limit",
          "1",
        ]);
        expect(before.code, before.stderr).toBe(0);
        expect(before.stdout).toBe(`${JSON.stringify(JSON.parse(before.stdout))}\n`); // one line: --json held
        const after = await runCli(nowhere, undefined, [
          "jobs",
          "list",
          "--limit",
          "1",
          "--api-key",
          key,
          "--base-url",
          server().url,
          "--json",
        ]);
        expect(after.stdout).toBe(before.stdout);
        // And with help: `--json jobs rows --help` is that command's help.
        const help = await runCli(nowhere, undefined, ["--json", "jobs", "rows", "--help"]);
        expect(help.stdout).toContain("Usage: vidrows-client jobs rows");
      });

      it("leaves no --out file when the job is still running, its rows were taken, or the read failed", async () => {
        const { key } = await server().workspace();
        const cli = (argv: string[]) => runCli(server().url, key, argv);
        const out = join(folder, "rows.csv");

        const held = hold();
        const video = videoWithCaptions(held.marker);
        const running = printed(await cli(["jobs", "submit", video, "--columns", "product,price"]));
        const early = await cli(["jobs", "rows", running.job_id, "--format", "csv", "--out", out]);
        expect(early.code).toBe(4);
        expect(early.stderr).toContain("still processing: nothing was taken");
        expect(readdirSync(folder)).toEqual([]);

        held.release();
        printed(await cli(["jobs", "wait", running.job_id, "--interval", "20", "--json"]));
        const taken = await cli(["jobs", "rows", running.job_id, "--format", "csv", "--out", out]);
        expect(taken.code, taken.stderr).toBe(0);
        expect(readFileSync(out, "utf8")).toBe(`video_id,product,price\r\n${video},held,1\r\n`);
        rmSync(out);

        const again = await cli(["jobs", "rows", running.job_id, "--format", "csv", "--out", out]);
        expect(again.code).toBe(4);
        expect(again.stderr).toContain(
          `taken by an earlier read; the server keeps none. Nothing was written to ${out}.`,
        );
        expect(readdirSync(folder)).toEqual([]);

        const missing = await cli(["jobs", "rows", "job_0000000000000000000000", "--out", out]);
        expect(missing.code).toBe(1);
        expect(readdirSync(folder)).toEqual([]);

        const noKey = await runCli(server().url, undefined, ["jobs", "rows", running.job_id, "--out", out]);
        expect(noKey.code).toBe(2);
        expect(readdirSync(folder)).toEqual([]);
      });

      it("says the rows are held, not taken, while another read's answer carries them, and takes them after", async () => {
        const { key } = await server().workspace();
        const cli = (argv: string[]) => runCli(server().url, key, argv);
        const out = join(folder, "rows.jsonl");
        const video = videoWithCaptions("BIGROWS");
        const job = printed(
          await cli(["jobs", "submit", video, "--columns", "product,price", "--wait", "--json"]),
        );
        expect(job.status).toBe("done");
        const slow = await stallAfterFirstChunk(server().url, `/v1/${job.job_id}`, key);

        const held = await cli(["jobs", "rows", job.job_id, "--format", "jsonl", "--out", out]);
        expect(held.code, held.stderr).toBe(6);
        expect(held.stderr).toContain(
          `The rows of ${job.job_id} are being handed to another read right now; they come back if that read does not get them, so try again in a moment. Nothing was written to ${out}.`,
        );
        expect(held.stderr).not.toContain("keeps none");
        expect(readdirSync(folder)).toEqual([]);

        // The stalled answer never got out whole: the rows come back, and the next run takes them.
        slow.close();
        const taken = await waitFor("the CLI to take the rows once the stalled read is gone", async () => {
          const run = await cli(["jobs", "rows", job.job_id, "--format", "jsonl", "--out", out]);
          return run.code === 6 ? undefined : run;
        });
        expect(taken.code, taken.stderr).toBe(0);
        expect(readFileSync(out, "utf8").split("\n").filter(Boolean)).toHaveLength(bigRowCount);
      });

      it("keeps a file already at --out untouched when nothing was taken", async () => {
        const { key } = await server().workspace();
        const out = join(folder, "kept.jsonl");
        const previous = '{"video_id":"earlier","a":1}\n';
        writeFileSync(out, previous);
        const missing = await runCli(server().url, key, [
          "jobs",
          "rows",
          "job_0000000000000000000000",
          "--out",
          out,
        ]);
        expect(missing.code).toBe(1);
        expect(readFileSync(out, "utf8")).toBe(previous);
        expect(readdirSync(folder)).toEqual(["kept.jsonl"]);
        rmSync(out);
        const intoFolder = await runCli(server().url, key, ["jobs", "rows", "job_1", "--out", folder]);
        expect(intoFolder).toMatchObject({ code: 2, stderr: expect.stringContaining("is a folder") });
      });
    },
  );
}
