// --help texts: the program's, a command group's (`jobs --help`), and each command's own with examples.
import { type Command, globalOptionHelp } from "./command.js";

const indent = (lines: readonly string[]) => lines.map((line) => `  ${line}`).join("\n");

/** Lines of help are wrapped to fit this many columns (a common terminal's width, less a margin). */
const helpWidth = 100;

/** One option as its help line gives it: the flags (`--out FILE`) and what it does (maybe empty). */
interface OptionEntry {
  readonly flags: string;
  readonly text: string;
}

/**
 * Reads option help lines as commands write them: the flags, two or more spaces, the description; a
 * line that starts with spaces goes on the description above. Commands need not pad the flags to any
 * column: the help lays every option out in one.
 */
function optionEntries(lines: readonly string[]): OptionEntry[] {
  const entries: { flags: string; text: string }[] = [];
  for (const line of lines) {
    const last = entries[entries.length - 1];
    if (/^\s/.test(line) && last) {
      last.text = `${last.text} ${line.trim()}`.trim();
      continue;
    }
    const [, flags = line, text = ""] = /^(\S.*?)(?: {2,}(.*))?$/.exec(line.trimEnd()) ?? [];
    entries.push({ flags, text: text.trim() });
  }
  return entries;
}

/** Words of `text` in lines of at most `width` characters (a longer word has a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Option sections whose descriptions all start in one column, wrapped under it. */
function optionSections(sections: readonly { title: string; lines: readonly string[] }[]): string[] {
  const parsed = sections.map(({ title, lines }) => ({ title, entries: optionEntries(lines) }));
  const flagsWidth = Math.max(...parsed.flatMap(({ entries }) => entries.map((e) => e.flags.length)));
  const column = 2 + flagsWidth + 2;
  return parsed.map(({ title, entries }) => {
    const body = entries.flatMap(({ flags, text }) => {
      const [first = "", ...more] = wrap(text, helpWidth - column);
      return [
        `  ${flags.padEnd(flagsWidth)}  ${first}`.trimEnd(),
        ...more.map((line) => `${" ".repeat(column)}${line}`),
      ];
    });
    return `${title}:\n${body.join("\n")}`;
  });
}

/** The usage's parts at the top level: `<video...>`, `(--columns a,b,c | --schema FILE)`, `[--wait]`. */
function usageParts(usage: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let part = "";
  for (const char of usage) {
    if (char === " " && depth === 0) {
      if (part !== "") parts.push(part);
      part = "";
      continue;
    }
    if (char === "(" || char === "[") depth += 1;
    if (char === ")" || char === "]") depth -= 1;
    part += char;
  }
  if (part !== "") parts.push(part);
  return parts;
}

/**
 * `Usage: program command <args>`, wrapped at whole groups: the lines after the first start under the
 * first argument, or four columns in when a group would not fit there.
 */
function usageLines(program: string, command: Command): string {
  const lead = `Usage: ${program} ${command.name} `;
  const parts = usageParts(command.usage);
  const fitsUnder = parts.every((part) => lead.length + part.length <= helpWidth);
  const indent = fitsUnder ? lead.length : 4;
  const lines: string[] = [];
  let line = "";
  for (const part of parts) {
    const start = lines.length === 0 ? lead.length : indent;
    if (line !== "" && start + line.length + 1 + part.length > helpWidth) {
      lines.push(line);
      line = part;
    } else line = line === "" ? part : `${line} ${part}`;
  }
  lines.push(line);
  return lines.map((text, i) => `${i === 0 ? lead : " ".repeat(indent)}${text}`.trimEnd()).join("\n");
}

export function commandHelp(program: string, command: Command): string {
  const sections = [usageLines(program, command), wrap(command.summary, helpWidth).join("\n")];
  const options = command.optionHelp.length > 0 ? [{ title: "Options", lines: command.optionHelp }] : [];
  sections.push(...optionSections([...options, { title: "Global options", lines: globalOptionHelp }]));
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
  const [globals] = optionSections([{ title: "Global options", lines: globalOptionHelp }]);
  return `Usage: ${program} [global options] <command> [options]

The vidrows API from the command line: submit videos, wait, take the rows, manage schemas, keys and webhooks.

Commands:
${commandList(commands)}

${globals}
Global options go before the command or anywhere after it.

Environment: VIDROWS_API_KEY (the key), VIDROWS_BASE_URL (default http://127.0.0.1:8080).

Exit codes: 0 done; 1 the API answered an error (its code is printed); 2 usage error; 3 network error
or time-out (no answer); 4 \`jobs rows\` took nothing (job running, or rows taken before); 130 Ctrl-C while waiting.

Run \`${program} <command> --help\` (or \`${program} help <command>\`) for a command's options and examples.
`;
}
