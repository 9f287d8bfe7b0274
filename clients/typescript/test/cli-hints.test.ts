// Command-line mistakes a newcomer makes, each answered with what is wrong and what to type instead:
// a negative number is a wrong value (not a missing one), a video id starting with - goes after --
// (which then works, against the real server), and a saved schema's name given as --schema-id is
// answered with its id. SQLite and PostgreSQL for the parts that reach the server.
import { describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../../../test/support/databases.js";
import { useJobsApi } from "../../../test/support/jobs-api.js";
import { printed, runCli } from "./cli-support.js";

const nowhere = "http://127.0.0.1:1"; // nothing is asked of a server before these are refused

describe("vidrows-client numbers given wrong", () => {
  const cases: { argv: string[]; says: string }[] = [
    {
      argv: ["usage", "--hard-cap", "-5"],
      says: '--hard-cap must be a whole number of credits from 0 to 1000000000000, or none (no cap); got "-5".',
    },
    {
      argv: ["usage", "--hard-cap", "1.5"],
      says: '--hard-cap must be a whole number of credits from 0 to 1000000000000, or none (no cap); got "1.5".',
    },
    {
      argv: ["jobs", "list", "--limit", "-3"],
      says: '--limit must be a whole number from 1 to 100; got "-3".',
    },
    {
      argv: ["jobs", "list", "--offset", "-1"],
      says: '--offset must be a whole number from 0 to 9007199254740991; got "-1".',
    },
    {
      argv: ["webhooks", "attempts", "we_1", "--limit", "-2"],
      says: '--limit must be a whole number from 1 to 100; got "-2".',
    },
    {
      argv: ["jobs", "wait", "job_1", "--interval", "-20"],
      says: '--interval must be a whole number of milliseconds from 10 to 3600000; got "-20".',
    },
    {
      argv: ["jobs", "submit", "--from", "https://www.youtube.com/@c", "--limit", "-1", "--columns", "a"],
      says: '--limit must be a whole number from 1 to 1000; got "-1".',
    },
    {
      argv: ["jobs", "submit", "dQw4w9WgXcQ", "--schema-id", "sch_1", "--schema-version", "-2"],
      says: '--schema-version must be a whole number from 1 to 2147483647; got "-2".',
    },
  ];
  for (const { argv, says } of cases) {
    it(`${argv.join(" ")}: exit 2, saying the value is wrong`, async () => {
      const run = await runCli(nowhere, "vr_live_x", argv);
      expect(run).toEqual({ code: 2, stdout: "", stderr: `error: ${says}\n` });
    });
  }

  it("still says an option needs a value when another option follows it", async () => {
    const run = await runCli(nowhere, "vr_live_x", ["jobs", "submit", "dQw4w9WgXcQ", "--columns", "--wait"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--columns needs a value");
  });
});

describe("vidrows-client a video id that starts with -", () => {
  it("says to put -- before it", async () => {
    const run = await runCli(nowhere, "vr_live_x", ["jobs", "submit", "-abc123defgh", "--columns", "a"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      'error: Unknown option -a for jobs submit, from "-abc123defgh". If that is a video id (YouTube\'s may ' +
        "start with -), put it after --, which ends the options: " +
        "`vidrows-client jobs submit [options] -- -abc123defgh`.\n",
    );
    // An 11-character id, as YouTube's are, among other videos and after the options.
    const among = await runCli(nowhere, "k", [
      "jobs",
      "submit",
      "--columns",
      "a",
      "dQw4w9WgXcQ",
      "-bc123defgh",
    ]);
    expect(among.code).toBe(2);
    expect(among.stderr).toContain("`vidrows-client jobs submit [options] -- -bc123defgh`");
    // A command that takes no arguments gets no such hint.
    const list = await runCli(nowhere, "k", ["jobs", "list", "-abc123defgh"]);
    expect(list.stderr).toBe(
      "error: Unknown option -a for jobs list. See `vidrows-client jobs list --help`.\n",
    );
  });
});

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`vidrows-client hints on ${dialectTitle(dialect)}`, () => {
    const { server } = useJobsApi(dialect.name);

    it("submits a video id that starts with - after --", async () => {
      const { key } = await server().workspace();
      const video = `-${Math.random().toString(36).slice(2, 8).padEnd(6, "x")}Dash`; // 11 characters
      expect(video).toHaveLength(11);
      server().addCaptions(video, 30, [`We sell the widget for five dollars. ${video}`]);
      const run = await runCli(server().url, key, [
        "jobs",
        "submit",
        "--columns",
        "product,price",
        "--wait",
        "--interval",
        "20",
        "--",
        video,
      ]);
      expect(printed(run)).toMatchObject({ status: "done", counts: { done: 1 } });
      const rows = await runCli(server().url, key, ["jobs", "rows", printed(run).job_id, "--format", "csv"]);
      // In CSV the id is led by ' so that no spreadsheet reads it as a formula.
      expect(rows.stdout).toBe(`video_id,product,price\r\n'${video},widget,5\r\n`);
    });

    it("answers a saved schema's name given as --schema-id with its id, and submits nothing", async () => {
      const { key } = await server().workspace();
      const cli = (argv: string[]) => runCli(server().url, key, argv);
      const saved = printed(
        await cli(["schemas", "create", "--name", "products", "--columns", "product,price"]),
      );
      const byName = await cli(["jobs", "submit", "dQw4w9WgXcQ", "--schema-id", "products"]);
      expect(byName).toEqual({
        code: 2,
        stdout: "",
        stderr:
          `error: --schema-id takes a saved schema's id, which starts with sch_; got "products". ` +
          `The saved schema named "products" is ${saved.id}: --schema-id ${saved.id}.\n`,
      });
      const unknown = await cli(["jobs", "submit", "dQw4w9WgXcQ", "--schema-id", "recipes"]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toBe(
        `error: --schema-id takes a saved schema's id, which starts with sch_; got "recipes". ` +
          "`vidrows-client schemas list` lists the saved schemas with their ids.\n",
      );
      expect(printed(await cli(["jobs", "list"])).pagination.total).toBe(0);
    });
  });
}
