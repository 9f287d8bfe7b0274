// What a `vidrows` command is: its words, its help text, its options and arguments, and what it runs.

/** A mistake in the command line itself: exit code 2, and a pointer to the help of `topic`. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help would have prevented the mistake, e.g. "workspace create"; "" for the overview. */
    readonly topic?: string,
  ) {
    super(message);
  }
}

export interface OptionSpec {
  readonly type: "boolean" | "string";
  /** For a string option, the placeholder shown in help: `--name <name>`. */
  readonly value?: string;
  readonly description: string;
}

export interface ArgumentSpec {
  /** As shown in help, e.g. `<workspace_id>`. */
  readonly name: string;
  readonly description: string;
}

/** What a command receives once its command line has been checked. */
export interface CommandInput {
  /** The options given; a boolean option that was not given is absent, not false. */
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  /** The positional arguments after the command's words. */
  readonly args: readonly string[];
  /** `--json` was given (only commands with a `json` option accept it). */
  readonly json: boolean;
}

export interface Command {
  /** The words that name it: `["migrate"]`, `["workspace", "create"]`. */
  readonly words: readonly string[];
  /** What follows the words in the usage line, without the options every command has. */
  readonly synopsis: string;
  /** One line for the overview. */
  readonly summary: string;
  /** A paragraph for the command's own help. */
  readonly description: string;
  readonly args: readonly ArgumentSpec[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly examples: readonly string[];
  run(input: CommandInput): Promise<void>;
}

/** Several commands under one word (`workspace create`, `workspace list`). */
export interface CommandGroup {
  readonly word: string;
  readonly summary: string;
  readonly description: string;
}

/** The `--json` option, for the commands that print a result. */
export function jsonOption(prints: string): OptionSpec {
  return { type: "boolean", description: `print ${prints} as JSON` };
}

export function commandName(command: Pick<Command, "words">): string {
  return command.words.join(" ");
}

/** Writes a command's result: `value` as one line of JSON with `--json`, else `text`. */
export function printResult(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}
