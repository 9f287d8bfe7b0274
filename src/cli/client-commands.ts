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

/** The client's global options that take a value, as the client reads them before its command. */
const clientValueOptions = ["--api-key", "--base-url"];

/**
 * Whether `argv` is a client command led by the client's global options (`--json`, `--api-key K`,
 * `--base-url=U`), which the client accepts before its command as after it: `vidrows --json jobs list`.
 */
export function isClientCommandAfterOptions(argv: readonly string[]): boolean {
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (arg === "--json" || clientValueOptions.some((option) => arg.startsWith(`${option}=`))) i += 1;
    else if (clientValueOptions.includes(arg)) i += 2;
    else break;
  }
  return i > 0 && isClientCommand(argv[i]);
}

/**
 * Hands `argv` (starting with the client command's word) to the client package and answers its exit
 * code. Loaded only here, so that the server's own commands never load the client.
 */
export async function runClientCommand(argv: string[]): Promise<number> {
  const { runClientCli } = await import("@vidrows/client/cli");
  return runClientCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    programName: "vidrows",
  });
}
