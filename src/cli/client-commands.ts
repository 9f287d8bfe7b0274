// The client commands: they talk to a running server over HTTP and belong to the client package
// (`@vidrows/client/cli`), to which this CLI hands their whole command line.

/** Names and one-line summaries, for the overview; the client package documents them itself. */
export const clientCommands: readonly { readonly word: string; readonly summary: string }[] = [
  { word: "jobs", summary: "submit jobs, follow them, fetch their rows" },
  { word: "usage", summary: "the workspace's plan, credits and usage" },
  { word: "schemas", summary: "the workspace's saved schemas" },
  { word: "keys", summary: "the workspace's API keys" },
  { word: "webhooks", summary: "the workspace's webhook endpoints" },
];

export function isClientCommand(word: string | undefined): boolean {
  return clientCommands.some((command) => command.word === word);
}

/** Runs a client command line (`["jobs", "list", ...]`) and answers its exit code. */
type ClientCli = (argv: string[]) => Promise<number>;

/**
 * The client package's entry point, or null while it is not part of this build. Wiring it is this one
 * function: `return (await import("@vidrows/client/cli")).runClientCli;`.
 */
async function loadClientCli(): Promise<ClientCli | null> {
  return null;
}

export class ClientCommandsMissing extends Error {
  constructor(word: string) {
    super(
      `"vidrows ${word}" is a client command, and this build of vidrows does not include the client package (@vidrows/client).`,
    );
  }
}

/** Hands `argv` (starting with the client command's word) to the client package. */
export async function runClientCommand(argv: string[]): Promise<number> {
  const run = await loadClientCli();
  if (run === null) throw new ClientCommandsMissing(argv[0] ?? "");
  return run(argv);
}
