// `vidrows --version`, `help`, each command's own `--help`, and mistakes in the command line (exit 2),
// run as a real child process from an empty folder, with a database that cannot be opened.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type CliResult, killAllChildren, runCli } from "../support/processes.js";
import { useWorkBudgets } from "../support/time-budgets.js";

useWorkBudgets();

afterAll(async () => {
  await killAllChildren();
});

// Help and usage mistakes must never touch the database: this one cannot be opened.
const env = { DATABASE_URL: "/nonexistent/folder/vidrows.db" };

const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

/** Every command with a word of its own help must show, and an option only its help mentions. */
const commands: { words: string[]; mentions: string }[] = [
  { words: ["serve"], mentions: "--no-worker" },
  { words: ["worker"], mentions: "VIDROWS_LLM" },
  { words: ["cluster"], mentions: "--workers <m>" },
  { words: ["migrate"], mentions: '{"applied": [...]}' },
  { words: ["workspace", "list"], mentions: '"active_keys"' },
  { words: ["workspace", "create"], mentions: "--plan <plan>" },
  { words: ["workspace", "new-key"], mentions: "--label <label>" },
  { words: ["workspace", "set-plan"], mentions: "<plan>" },
  { words: ["credits", "grant"], mentions: "<credits>" },
];

function expectPrinted(result: CliResult): string {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

describe("vidrows --version", () => {
  it("prints the version in package.json, from any working folder", async () => {
    for (const flag of ["--version", "-v"]) {
      expect(expectPrinted(await runCli([flag], env))).toBe(`${version}\n`);
    }
  });
});

describe("vidrows help", () => {
  it("gives one overview for help, --help, -h and no command at all", async () => {
    const overview = expectPrinted(await runCli(["help"], env));
    for (const args of [["--help"], ["-h"], [], ["help", "help"]]) {
      expect(expectPrinted(await runCli(args, env))).toBe(overview);
    }
  });

  it("lists every command on a line of its own, the client commands, and the exit codes", async () => {
    const overview = expectPrinted(await runCli(["help"], env));
    expect(overview).toMatch(/^Usage: vidrows <command> \[options\]\n/);
    expect(overview).toContain(`vidrows ${version}`);
    for (const { words } of commands) {
      expect(overview).toMatch(new RegExp(`\\n  ${words.join(" ")}\\b[^\\n]*\\S[^\\n]*\\n`));
    }
    const client = overview.split("Client commands (talk to a running server over HTTP):\n")[1] ?? "";
    for (const word of ["jobs", "usage", "schemas", "keys", "webhooks"]) {
      expect(client).toMatch(new RegExp(`^(  \\S.*\\n)*  ${word} `));
    }
    expect(overview).toMatch(/Exit codes: 0 [^\n]*1 [^\n]*2 /);
  });

  it("shows each command's own usage, options and examples, alike for help <cmd>, --help and -h", async () => {
    const overview = expectPrinted(await runCli(["help"], env));
    const seen = new Set<string>([overview]);
    for (const { words, mentions } of commands) {
      const text = expectPrinted(await runCli(["help", ...words], env));
      expect(text).toMatch(new RegExp(`^Usage: vidrows ${words.join(" ")}\\b`));
      expect(text).toContain("Options:\n");
      expect(text).toContain("-h, --help");
      expect(text).toMatch(new RegExp(`Examples:\\n  [^\\n]*vidrows ${words.join(" ")}\\b`));
      expect(text).toContain(mentions);
      expect(expectPrinted(await runCli([...words, "--help"], env))).toBe(text);
      expect(expectPrinted(await runCli([...words, "-h"], env))).toBe(text);
      seen.add(text);
    }
    // Nine commands, nine different texts, none of them the overview.
    expect(seen.size).toBe(commands.length + 1);
  });

  it("answers --help before anything else on the line is checked", async () => {
    const text = expectPrinted(await runCli(["help", "workspace", "create"], env));
    expect(expectPrinted(await runCli(["workspace", "create", "--bogus", "--help"], env))).toBe(text);
  });

  it("lists a group's sub-commands for help <group> and <group> --help", async () => {
    const text = expectPrinted(await runCli(["help", "workspace"], env));
    expect(text).toMatch(/^Usage: vidrows workspace <sub-command>/);
    for (const sub of ["list", "create", "new-key", "set-plan"])
      expect(text).toMatch(new RegExp(`\\n  ${sub}\\b`));
    expect(expectPrinted(await runCli(["workspace", "--help"], env))).toBe(text);
    expect(expectPrinted(await runCli(["help", "credits"], env))).toMatch(
      /\n {2}grant <workspace_id> <credits>/,
    );
  });
});

describe("a mistake in the command line", () => {
  const mistakes: { args: string[]; says: RegExp }[] = [
    { args: ["frobnicate"], says: /Unknown command "frobnicate"\. See `vidrows help`\.$/ },
    {
      args: ["workspace", "delete"],
      says: /Unknown command "workspace delete".*See `vidrows help workspace`\.$/,
    },
    {
      args: ["migrate", "--force"],
      says: /Unknown option --force for "vidrows migrate"\. See `vidrows help migrate`\.$/,
    },
    { args: ["workspace", "list", "-x"], says: /Unknown option -x .*`vidrows help workspace list`/ },
    { args: ["serve", "--json"], says: /Unknown option --json for "vidrows serve"/ },
    { args: ["--frobnicate"], says: /Unknown option --frobnicate.*`vidrows help`/ },
    {
      args: ["workspace", "create", "--plan", "free", "--name"],
      says: /--name needs a value: --name <name>/,
    },
    { args: ["workspace", "create", "--name", "--plan", "free"], says: /--name needs a value/ },
    { args: ["workspace", "list", "--json=yes"], says: /--json takes no value/ },
    { args: ["cluster", "--api", "-2"], says: /--api must be a whole number from 0 to 64; got "-2"/ },
    { args: ["cluster", "--workers", "-1"], says: /--workers must be a whole number from 0 to 64; got "-1"/ },
    { args: ["workspace", "list", "--json", "--json"], says: /--json is given twice/ },
    { args: ["workspace", "list", "extra"], says: /Unexpected argument "extra".*takes no arguments/ },
    {
      args: ["workspace", "new-key"],
      says: /workspace new-key needs <workspace_id>.*`vidrows help workspace new-key`/,
    },
    { args: ["help", "nothing"], says: /No command "nothing" to explain/ },
    { args: ["--version", "now"], says: /--version takes nothing after it/ },
  ];
  for (const { args, says } of mistakes) {
    it(`vidrows ${args.join(" ")}: exit 2 and one line saying what is wrong and where help is`, async () => {
      const result = await runCli(args, env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe("");
      expect(lines[0]).toMatch(/^vidrows: /);
      expect(lines[0]).toMatch(says);
      expect(result.stderr).not.toMatch(/ERR_PARSE_ARGS|parseArgs|TypeError|node:internal|\bat /);
    });
  }

  it("hands a client command to the client package, which speaks of itself as vidrows", async () => {
    const help = await runCli(["jobs", "list", "--help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/vidrows jobs list/);
    expect(help.stdout).not.toMatch(/vidrows-client/);
    // No key anywhere: the client's own usage error (exit 2), naming where a key comes from.
    const noKey = await runCli(["jobs", "list"], { ...env, VIDROWS_API_KEY: "" });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/VIDROWS_API_KEY/);
  });

  it("hands a client command led by the client's global options to the client package", async () => {
    // Nothing listens on port 9: the client parsed the line, asked, and says so as JSON (exit 3).
    const args = ["--json", "--api-key", "vr_test_x", "--base-url=http://127.0.0.1:9", "usage"];
    const result = await runCli(args, env);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stderr).error.code).toBe("network_error");
    // An option the client does not take before a command is still the server CLI's usage error.
    const wrong = await runCli(["--status", "running", "jobs", "list"], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^vidrows: Unknown option --status; a command comes first/);
  });

  it("hands a video id that starts with - to the client after --, and hints at -- without it", async () => {
    const keyed = { ...env, VIDROWS_API_KEY: "vr_test_x", VIDROWS_BASE_URL: "http://127.0.0.1:9" };
    // Parsed and sent: nothing listens on port 9 (exit 3), so the line itself was right.
    const after = await runCli(["jobs", "submit", "--columns", "a", "--", "-abc123defg"], keyed);
    expect(after.code).toBe(3);
    const before = await runCli(["jobs", "submit", "-abc123defg", "--columns", "a"], keyed);
    expect(before.code).toBe(2);
    expect(before.stderr).toContain(
      "put it after --, which ends the options: `vidrows jobs submit [options] -- -abc123defg`",
    );
  });

  it("lists in its overview exactly the client package's command groups", async () => {
    const { clientCommandGroups } = await import("@vidrows/client/cli");
    const { clientCommands } = await import("../../src/cli/client-commands.js");
    expect(clientCommands.map((command) => command.word)).toEqual([...clientCommandGroups]);
  });
});
