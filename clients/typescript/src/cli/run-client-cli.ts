// runClientCli: the client commands (jobs, usage, schemas, keys, webhooks) for `vidrows-client` and for the
// server's `vidrows` CLI to delegate to. Answers the exit code instead of exiting, so callers and tests decide.
import { parseArgs } from "node:util";
import { defaultBaseUrl, Vidrows } from "../client.js";
import { VidrowsError } from "../errors.js";
import { accountCommands } from "./account-commands.js";
import {
  type ClientCliIo,
  type Command,
  type CommandContext,
  globalOptions,
  type OptionSpecs,
} from "./command.js";
import { exitCodeFor, exitCodes, UsageError } from "./exit-codes.js";
import { commandHelp, groupHelp, programHelp } from "./help.js";
import { jobCommands } from "./jobs-commands.js";
import { rowsCommand } from "./rows-command.js";
import { clientVersion } from "./version.js";
import { webhookCommands } from "./webhook-commands.js";

export type { ClientCliIo } from "./command.js";
export { exitCodes } from "./exit-codes.js";

export const clientCommands: readonly Command[] = [
  ...jobCommands,
  rowsCommand,
  ...accountCommands,
  ...webhookCommands,
];

/** The first words of the client's commands, for a CLI that delegates them here. */
export const clientCommandGroups: readonly string[] = ["jobs", "usage", "schemas", "keys", "webhooks"];

const processIo: ClientCliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/** What may be a video id starting with a dash (YouTube's may: `-abc123defg`), which a parser takes for options. */
const dashedVideoId = /^-[A-Za-z0-9_-]{4,}$/;

/**
 * `--hard-cap -5`: a negative number after an option that takes a value is read as that value, for the
 * command to judge ("must be a whole number from 0"), not as an option that left `--hard-cap` without one.
 */
function joinNegativeValues(args: readonly string[], options: OptionSpecs): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === "--") return [...joined, ...args.slice(i)];
    const next = args[i + 1];
    const takesValue = arg.startsWith("--") && options[arg.slice(2)]?.type === "string";
    if (takesValue && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}

/** Node's parser messages, said for people: which option, and what is wrong with it. */
function parseProblem(
  error: Error & { code?: string },
  command: Command,
  program: string,
  args: readonly string[],
): UsageError {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  const see = `See \`${program} ${command.name} --help\`.`;
  const beforeEnd = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
  const known = { ...globalOptions, ...command.options };
  const videoId = beforeEnd.find((arg) => dashedVideoId.test(arg) && !(arg.slice(2) in known));
  if (
    error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" &&
    videoId !== undefined &&
    command.positionals.max > 0
  ) {
    return new UsageError(
      `Unknown option ${option} for ${command.name}, from "${videoId}". If that is a video id (YouTube's may ` +
        `start with -), put it after --, which ends the options: \`${program} ${command.name} [options] -- ${videoId}\`.`,
    );
  }
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return new UsageError(`Unknown option ${option} for ${command.name}. ${see}`);
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE")
    return new UsageError(`${option} needs a value. ${see}`);
  return new UsageError(`${error.message} ${see}`);
}

function findCommand(argv: readonly string[]): { command: Command; rest: string[] } | undefined {
  const two = clientCommands.find((command) => command.name === `${argv[0]} ${argv[1]}`);
  if (two) return { command: two, rest: argv.slice(2) };
  const one = clientCommands.find((command) => command.name === argv[0]);
  return one ? { command: one, rest: argv.slice(1) } : undefined;
}

function printError(io: ClientCliIo, json: boolean, error: unknown): void {
  if (error instanceof VidrowsError) {
    if (json) {
      const { code, message, status, param, requestId } = error;
      io.stderr.write(
        JSON.stringify({ error: { code, message, status, param, request_id: requestId } }) + "\n",
      );
      return;
    }
    const param = error.param ? ` (${error.param})` : "";
    const request = error.requestId ? ` [${error.requestId}]` : "";
    io.stderr.write(`error: ${error.code}${param}: ${error.message}${request}\n`);
    return;
  }
  io.stderr.write(`error: ${(error as Error).message}\n`);
}

/**
 * Splits the global options written before the command's name from the rest. Anything else before the
 * name is an error: a command's own options go after it.
 */
function leadingGlobalOptions(
  argv: readonly string[],
  program: string,
): { leading: string[]; words: string[] } {
  let i = 0;
  while (i < argv.length && (argv[i] as string).startsWith("-") && argv[i] !== "-") {
    const token = argv[i] as string;
    if (token === "--") return { leading: argv.slice(0, i), words: argv.slice(i + 1) };
    const name = token.startsWith("--")
      ? token.slice(2).split("=")[0]
      : Object.keys(globalOptions).find((key) => globalOptions[key]?.short === token.slice(1));
    const spec = name === undefined ? undefined : globalOptions[name];
    if (!spec) {
      throw new UsageError(
        `Unknown option ${token} before the command. Only global options (--api-key, --base-url, --json, --help, ` +
          `--version) go there; a command's own options go after it. Run \`${program} --help\` for the commands.`,
      );
    }
    i += spec.type === "string" && !token.includes("=") ? 2 : 1;
  }
  return { leading: argv.slice(0, i), words: argv.slice(i) };
}

/** Runs one client command; resolves to its exit code (see `exitCodes`). */
export async function runClientCli(given: string[], io: ClientCliIo = processIo): Promise<number> {
  const argv = given.map((arg) => (arg === "-V" ? "--version" : arg));
  const program = io.programName ?? "vidrows-client";
  let split;
  try {
    split = leadingGlobalOptions(argv, program);
  } catch (error) {
    printError(io, argv.includes("--json"), error);
    return exitCodes.usageError;
  }
  const { leading, words } = split;
  if (argv.includes("--version") || argv.includes("-v")) {
    io.stdout.write(`${clientVersion()}\n`);
    return exitCodes.ok;
  }
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  if (words.length === 0) {
    (wantsHelp ? io.stdout : io.stderr).write(programHelp(program, clientCommands));
    return wantsHelp ? exitCodes.ok : exitCodes.usageError;
  }
  if (words[0] === "help") return runClientCli([...leading, ...words.slice(1), "--help"], io);
  const found = findCommand(words);
  if (!found) {
    const group = clientCommands.filter((command) => command.name.startsWith(`${words[0]} `));
    if (group.length > 0 && (wantsHelp || words.length === 1)) {
      (wantsHelp ? io.stdout : io.stderr).write(groupHelp(program, words[0] as string, group));
      return wantsHelp ? exitCodes.ok : exitCodes.usageError;
    }
    const what = group.length > 0 ? `${words[0]} ${words[1]}` : words[0];
    io.stderr.write(`error: unknown command "${what}". Run \`${program} --help\` for the commands.\n`);
    return exitCodes.usageError;
  }
  const { command } = found;
  // Global options given before the name are read as if written after it.
  const rest = [...leading, ...found.rest];
  if (wantsHelp) {
    io.stdout.write(commandHelp(program, command));
    return exitCodes.ok;
  }
  let json = rest.includes("--json");
  try {
    let parsed;
    const options = { ...globalOptions, ...command.options };
    try {
      parsed = parseArgs({
        args: joinNegativeValues(rest, options),
        options,
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw parseProblem(error as Error, command, program, rest);
    }
    const { values, positionals } = parsed;
    json = values.json === true;
    const { min, max } = command.positionals;
    if (positionals.length < min || positionals.length > max) {
      throw new UsageError(
        `Usage: ${program} ${command.name} ${command.usage}\nSee \`${program} ${command.name} --help\`.`,
      );
    }
    let client: Vidrows | undefined;
    const context: CommandContext = {
      values: values as CommandContext["values"],
      positionals,
      io,
      program,
      json,
      client() {
        // An empty variable counts as unset.
        const apiKey = (values["api-key"] as string | undefined) || io.env.VIDROWS_API_KEY;
        if (!apiKey) throw new UsageError("No API key: set VIDROWS_API_KEY or pass --api-key.");
        const baseUrl =
          (values["base-url"] as string | undefined) ?? io.env.VIDROWS_BASE_URL ?? defaultBaseUrl;
        client ??= new Vidrows({ apiKey, baseUrl });
        return client;
      },
      print(value) {
        io.stdout.write(JSON.stringify(value, null, json ? undefined : 2) + "\n");
      },
    };
    return await command.run(context);
  } catch (error) {
    const code = exitCodeFor(error);
    // A stopped wait has said what it needs to (the job goes on).
    if (code !== exitCodes.interrupted) printError(io, json, error);
    return code;
  }
}
