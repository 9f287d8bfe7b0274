// --help texts: the program's, a command group's (`jobs --help`), and each command's own with examples.
import { type Command, globalOptionHelp } from "./command.js";

const indent = (lines: readonly string[]) => lines.map((line) => `  ${line}`).join("\n");

export function commandHelp(program: string, command: Command): string {
  const sections = [
    `Usage: ${program} ${command.name}${command.usage ? ` ${command.usage}` : ""}`,
    command.summary,
  ];
  if (command.optionHelp.length > 0) sections.push(`Options:\n${indent(command.optionHelp)}`);
  sections.push(`Global options:\n${indent(globalOptionHelp)}`);
  sections.push(`Examples:\n${indent(command.examples.map((example) => `${program} ${example}`))}`);
  return sections.join("\n\n") + "\n";
}

function commandList(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return indent(
    commands.map(
      (command) => `${command.name.padEnd(width)}  ${command.summary.split(". ")[0]?.replace(/\.?$/, ".")}`,
    ),
  );
}

export function groupHelp(program: string, group: string, commands: readonly Command[]): string {
  return (
    `Usage: ${program} ${group} <command> [options]\n\n` +
    `Commands:\n${commandList(commands)}\n\n` +
    `Run \`${program} ${group} <command> --help\` for a command's options and examples.\n`
  );
}

export function programHelp(program: string, commands: readonly Command[]): string {
  return `Usage: ${program} <command> [options]

The vidrows API from the command line: submit videos, wait, take the rows, manage schemas, keys and webhooks.

Commands:
${commandList(commands)}

Global options:
${indent(globalOptionHelp)}

Environment: VIDROWS_API_KEY (the key), VIDROWS_BASE_URL (default http://127.0.0.1:8080).

Exit codes: 0 done; 1 the API answered an error (its code is printed); 2 usage error; 3 network error
or time-out (no answer); 4 \`jobs rows\` took nothing (job running, or rows taken before); 130 Ctrl-C while waiting.

Run \`${program} <command> --help\` (or \`${program} help <command>\`) for a command's options and examples.
`;
}
