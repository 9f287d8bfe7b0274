// Every command of `vidrows`, in the order the overview lists them, and how a command line finds one.
import { adminCommands } from "./admin-commands.js";
import { type Command, type CommandGroup, commandName } from "./command.js";
import { serverCommands } from "./server-commands.js";

export const groups: readonly CommandGroup[] = [
  {
    word: "workspace",
    summary: "list, create and manage workspaces",
    description:
      "Manages workspaces directly on the database in DATABASE_URL, with no server running or with servers running.",
  },
  {
    word: "credits",
    summary: "credits of a workspace",
    description: "Changes a workspace's credits directly on the database in DATABASE_URL.",
  },
];

export { serverCommands, adminCommands };

export const allCommands: readonly Command[] = [...serverCommands, ...adminCommands];

export function groupNamed(word: string | undefined): CommandGroup | undefined {
  return groups.find((group) => group.word === word);
}

export function commandsOf(group: CommandGroup): Command[] {
  return allCommands.filter((command) => command.words[0] === group.word);
}

/** The command named by `words` exactly (`["workspace", "list"]`), if there is one. */
export function commandNamed(words: readonly string[]): Command | undefined {
  const name = words.join(" ");
  return allCommands.find((command) => commandName(command) === name);
}
