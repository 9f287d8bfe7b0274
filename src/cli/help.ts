// The help texts: the overview of every command, a group's sub-commands, and one command's usage.
import { clientCommands } from "./client-commands.js";
import { type Command, type CommandGroup, commandName, type OptionSpec } from "./command.js";
import { adminCommands, commandsOf, serverCommands } from "./command-table.js";

export const exitCodes =
  "Exit codes: 0 done, 1 failed (the message says why), 2 a mistake in the command line.";

/** Two-column lines, the left column padded to its widest entry. */
function columns(entries: readonly (readonly [string, string])[], indent = "  "): string {
  const width = Math.max(...entries.map(([left]) => left.length));
  return entries.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`.trimEnd()).join("\n");
}

function usageLine(command: Command): string {
  return [commandName(command), command.synopsis].filter(Boolean).join(" ");
}

export function overview(version: string): string {
  const listed = (commands: readonly Command[]) =>
    commands.map((command) => [usageLine(command), command.summary] as const);
  const entries = {
    server: listed(serverCommands),
    admin: listed(adminCommands),
    client: clientCommands.map(({ word, summary }) => [word, summary] as const),
    help: [
      ["help [<command>]", "this overview, or a command's own help"],
      ["--version, -v", "print the version"],
    ] as const,
  };
  // One width for every section, so that the summaries line up down the page.
  const width = Math.max(...Object.values(entries).flatMap((list) => list.map(([left]) => left.length)));
  const section = (list: readonly (readonly [string, string])[]) =>
    columns(list.map(([left, right]) => [left.padEnd(width), right] as const));
  return `Usage: vidrows <command> [options]

vidrows ${version}: an HTTP API that turns videos into structured rows.

Server commands:
${section(entries.server)}

Administration commands (directly on the database in DATABASE_URL):
${section(entries.admin)}

Client commands (talk to a running server over HTTP):
${section(entries.client)}

Help:
${section(entries.help)}

Run \`vidrows help <command>\` or \`vidrows <command> --help\` for a command's options and examples.
--json prints machine-readable output, on the commands that print a result.
Settings come from the environment and from a .env file in the working directory; see docs/configuration.md.
${exitCodes}
`;
}

function optionLeft(name: string, spec: OptionSpec): string {
  return spec.type === "string" ? `--${name} ${spec.value ?? "<value>"}` : `--${name}`;
}

/** The usage line with every option: `vidrows workspace list [--json]`. */
function fullUsage(command: Command): string {
  const shown = new Set(command.synopsis.match(/--[a-z-]+/g) ?? []);
  const optional = Object.entries(command.options)
    .filter(([name]) => !shown.has(`--${name}`))
    .map(([name, spec]) => `[${optionLeft(name, spec)}]`);
  return ["vidrows", usageLine(command), ...optional].join(" ");
}

export function commandHelp(command: Command): string {
  const parts = [`Usage: ${fullUsage(command)}`, command.description];
  if (command.args.length > 0) {
    parts.push(`Arguments:\n${columns(command.args.map((arg) => [arg.name, arg.description] as const))}`);
  }
  const options = [
    ...Object.entries(command.options).map(
      ([name, spec]) => [optionLeft(name, spec), spec.description] as const,
    ),
    ["-h, --help", "show this help"] as const,
  ];
  parts.push(`Options:\n${columns(options)}`);
  parts.push(`Examples:\n${command.examples.map((example) => `  ${example}`).join("\n")}`);
  return `${parts.join("\n\n")}\n`;
}

export function groupHelp(group: CommandGroup): string {
  const subCommands = commandsOf(group).map(
    (command) =>
      [
        [command.words.slice(1).join(" "), command.synopsis].filter(Boolean).join(" "),
        command.summary,
      ] as const,
  );
  return `Usage: vidrows ${group.word} <sub-command> [options]

${group.description}

Sub-commands:
${columns(subCommands)}

Run \`vidrows help ${group.word} <sub-command>\` or \`vidrows ${group.word} <sub-command> --help\` for its options and examples.
`;
}
