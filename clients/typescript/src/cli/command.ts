// What a client command is: its usage, options and examples (for --help and the parser), and its action.
import type { ParseArgsConfig } from "node:util";
import type { Vidrows } from "../client.js";
import { UsageError } from "./exit-codes.js";

export type OptionSpecs = NonNullable<ParseArgsConfig["options"]>;

export interface ClientCliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Stops a wait as Ctrl-C does; default: the process's SIGINT. */
  readonly interrupt?: AbortSignal;
  /** How the program is called in help and messages: `vidrows-client`, or `vidrows` when delegated to. */
  readonly programName?: string;
}

export interface CommandContext {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: readonly string[];
  readonly io: ClientCliIo;
  readonly program: string;
  /** Compact JSON and no progress line. */
  readonly json: boolean;
  /** The client, built from --api-key/--base-url or the environment (a usage error without a key). */
  client(): Vidrows;
  /** Prints `value` as JSON on stdout: indented for people, one line with --json. */
  print(value: unknown): void;
}

export interface Command {
  /** e.g. `jobs submit`. */
  readonly name: string;
  /** The arguments after the name, e.g. `<video...> (--columns a,b | --schema file.json | --schema-id sch_...)`. */
  readonly usage: string;
  readonly summary: string;
  readonly options: OptionSpecs;
  /** Lines describing the options, for --help. */
  readonly optionHelp: readonly string[];
  readonly examples: readonly string[];
  readonly positionals: { readonly min: number; readonly max: number };
  run(context: CommandContext): Promise<number>;
}

/** Options every command takes, before the command's name or anywhere after it. */
export const globalOptions: OptionSpecs = {
  "api-key": { type: "string" },
  "base-url": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  // -v as the server's `vidrows -v`; -V, the other common spelling, is read as --version too.
  version: { type: "boolean", short: "v" },
};

export const globalOptionHelp = [
  "--api-key KEY     the API key (default: $VIDROWS_API_KEY)",
  "--base-url URL    the API's address (default: $VIDROWS_BASE_URL, else http://127.0.0.1:8080)",
  "--json            compact JSON output, no progress line",
  "-h, --help        this help",
  "-v, -V, --version  the client's version",
];

export function stringOption(context: CommandContext, name: string): string | undefined {
  const value = context.values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * An option that must be a whole number in [min, max], or undefined when not given. `what` names the
 * number where that helps (`a whole number of credits`), `orElse` the word it may be instead (`none`).
 */
export function integerOption(
  context: CommandContext,
  name: string,
  min: number,
  max: number,
  { what = "a whole number", orElse }: { what?: string; orElse?: string } = {},
): number | undefined {
  const raw = stringOption(context, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || value < min || value > max) {
    const alternative = orElse === undefined ? "" : `, or ${orElse}`;
    throw new UsageErrorForOption(name, `must be ${what} from ${min} to ${max}${alternative}; got "${raw}"`);
  }
  return value;
}

/** Comma-separated names, trimmed, empty ones dropped. */
export function listOption(context: CommandContext, name: string): string[] | undefined {
  const raw = stringOption(context, name);
  return raw === undefined
    ? undefined
    : raw
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== "");
}

export class UsageErrorForOption extends UsageError {
  constructor(option: string, problem: string) {
    super(`--${option} ${problem}.`);
  }
}
