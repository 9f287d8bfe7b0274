// Reads a `vidrows` command line: help and version, the command it names, that command's options and
// arguments (checked here, so that every command refuses mistakes alike), then runs it.
import { parseArgs } from "node:util";
import { isClientCommand, isClientCommandAfterOptions, runClientCommand } from "./client-commands.js";
import { type Command, type CommandInput, commandName, UsageError } from "./command.js";
import { commandNamed, commandsOf, groupNamed } from "./command-table.js";
import { exitCode, reportFailure } from "./failures.js";
import { commandHelp, groupHelp, overview } from "./help.js";
import { packageVersion } from "./version.js";

const isHelpFlag = (arg: string | undefined) => arg === "--help" || arg === "-h";

function print(text: string): number {
  process.stdout.write(text);
  return exitCode.done;
}

/** `vidrows help [<topic>]`, `vidrows --help [<topic>]`. */
async function showHelp(topic: string[]): Promise<number> {
  const [first] = topic;
  // `help help` is answered by the overview, which says how help works.
  if (first === undefined || (first === "help" && topic.length === 1))
    return print(overview(packageVersion()));
  if (isClientCommand(first)) return runClientCommand([...topic, "--help"]);
  const group = groupNamed(first);
  if (group && topic.length === 1) return print(groupHelp(group));
  const command = commandNamed(topic);
  if (!command) throw new UsageError(`No command "${topic.join(" ")}" to explain.`, group?.word ?? "");
  return print(commandHelp(command));
}

type Resolved = { command: Command; rest: string[] } | { help: string };

/** The command that `argv` names, and what follows its words; or a group's help. */
function resolveCommand(argv: string[]): Resolved {
  const [first = "", second, ...afterSub] = argv;
  const group = groupNamed(first);
  if (!group) {
    const command = commandNamed([first]);
    if (!command) throw new UsageError(`Unknown command "${first}".`, "");
    return { command, rest: argv.slice(1) };
  }
  if (isHelpFlag(second)) return { help: groupHelp(group) };
  const names = commandsOf(group).map((command) => command.words.slice(1).join(" "));
  if (second === undefined || second.startsWith("-")) {
    throw new UsageError(`"vidrows ${group.word}" needs a sub-command: ${names.join(", ")}.`, group.word);
  }
  const command = commandNamed([first, second]);
  if (!command)
    throw new UsageError(
      `Unknown command "${first} ${second}"; the sub-commands are ${names.join(", ")}.`,
      group.word,
    );
  return { command, rest: afterSub };
}

/** The command's options and arguments from `rest`, or null when its help was asked for. */
function readCommandLine(command: Command, rest: string[]): CommandInput | null {
  const name = commandName(command);
  const mistake = (message: string) => new UsageError(message, name);
  const known = Object.fromEntries(
    Object.entries(command.options).map(([option, spec]) => [option, { type: spec.type }]),
  );
  // Not strict: unknown options come back as tokens, refused below in this CLI's words, not Node's.
  const { tokens } = parseArgs({
    args: rest,
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: { ...known, help: { type: "boolean", short: "h" } },
  });
  if (tokens.some((token) => token.kind === "option" && token.name === "help")) return null;

  const options: Record<string, string | boolean> = {};
  const args: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      args.push(token.value);
      continue;
    }
    if (token.kind !== "option") continue;
    // Every number this CLI takes is at least 1: "-5" is a wrong number, not an unknown option.
    if (/^-\d/.test(token.rawName)) {
      throw mistake(
        `"${rest.find((arg) => arg.startsWith(token.rawName)) ?? token.rawName}" is negative; numbers given to vidrows are whole and at least 1.`,
      );
    }
    const spec = command.options[token.name];
    if (!spec) throw mistake(`Unknown option ${token.rawName} for "vidrows ${name}".`);
    if (token.name in options) throw mistake(`${token.rawName} is given twice.`);
    if (spec.type === "boolean") {
      if (token.value !== undefined) throw mistake(`${token.rawName} takes no value.`);
      options[token.name] = true;
    } else {
      // A negative number is a value, wrong or not, for the command to judge: "--api -2" is not "--api".
      const optionLike = token.value?.startsWith("-") === true && !/^-\d/.test(token.value);
      if (token.value === undefined || (!token.inlineValue && optionLike)) {
        throw mistake(`${token.rawName} needs a value: ${token.rawName} ${spec.value ?? "<value>"}.`);
      }
      options[token.name] = token.value;
    }
  }
  if (args.length > command.args.length) {
    const expected =
      command.args.length === 0 ? "no arguments" : command.args.map((arg) => arg.name).join(" ");
    throw mistake(`Unexpected argument "${args[command.args.length]}": "vidrows ${name}" takes ${expected}.`);
  }
  return { options, args, json: options.json === true };
}

async function dispatch(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) return print(overview(packageVersion()));
  if (first === "help" || isHelpFlag(first)) return showHelp(rest);
  if (first === "--version" || first === "-v") {
    if (rest.length > 0) throw new UsageError(`${first} takes nothing after it; got "${rest[0]}".`, "");
    return print(`${packageVersion()}\n`);
  }
  if (isClientCommandAfterOptions(argv)) return runClientCommand(argv);
  if (first.startsWith("-")) throw new UsageError(`Unknown option ${first}; a command comes first.`, "");
  if (isClientCommand(first)) return runClientCommand(argv);

  const resolved = resolveCommand(argv);
  if ("help" in resolved) return print(resolved.help);
  const { command, rest: commandLine } = resolved;
  const input = readCommandLine(command, commandLine);
  if (input === null) return print(commandHelp(command));
  const { loadDotEnv } = await import("../config.js");
  loadDotEnv();
  try {
    await command.run(input);
  } catch (error) {
    // A mistake found by the command itself points to the command's help.
    if (error instanceof UsageError && error.topic === undefined)
      throw new UsageError(error.message, commandName(command));
    throw error;
  }
  return exitCode.done;
}

/**
 * Runs one command line and answers its exit code: 0 done, 1 failed, 2 a mistake in the command line.
 * Never rejects. A command that serves or works has started when this answers, and runs on.
 */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    return await reportFailure(error);
  }
}
