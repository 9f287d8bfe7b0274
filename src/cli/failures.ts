// How a failed command is reported: one message on stderr, a next step where there is one, and the exit code.
import { UsageError } from "./command.js";

export const exitCode = { done: 0, failed: 1, usage: 2 } as const;

// Loaded when a command failed, by which time the command has loaded them: help and version never do.
const failureKinds = async () => {
  const [{ ConfigError }, { UnknownPlanError, UnknownWorkspaceError, WorkspaceNameTakenError }] =
    await Promise.all([import("../config.js"), import("../workspaces/workspaces.js")]);
  return { ConfigError, UnknownPlanError, UnknownWorkspaceError, WorkspaceNameTakenError };
};
type FailureKinds = Awaited<ReturnType<typeof failureKinds>>;

/** What to do next, after the message of a failure the user can fix. */
function hintFor(error: unknown, { ConfigError, UnknownWorkspaceError }: FailureKinds): string | null {
  if (error instanceof UnknownWorkspaceError) {
    return "Check the id: `vidrows workspace list` shows every workspace, and `vidrows workspace create` printed it.";
  }
  if (error instanceof ConfigError) return error.hint;
  return null;
}

/** Failures whose message says it all; any other one is a bug or an outage, whose stack helps at debug. */
function isExpected(error: unknown, kinds: FailureKinds): boolean {
  const { ConfigError, UnknownPlanError, UnknownWorkspaceError, WorkspaceNameTakenError } = kinds;
  return (
    error instanceof ConfigError ||
    error instanceof UnknownPlanError ||
    error instanceof WorkspaceNameTakenError ||
    error instanceof UnknownWorkspaceError
  );
}

// Read from the environment itself: a failure may come before (or from) the settings being loaded.
const stackWanted = () => ["debug", "trace"].includes((process.env.LOG_LEVEL ?? "").toLowerCase());

/** Writes the failure to stderr and answers the exit code. */
export async function reportFailure(error: unknown): Promise<number> {
  if (error instanceof UsageError) {
    const help = error.topic ? `vidrows help ${error.topic}` : "vidrows help";
    process.stderr.write(`vidrows: ${error.message} See \`${help}\`.\n`);
    return exitCode.usage;
  }
  const kinds = await failureKinds();
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`vidrows: ${message}\n`);
  const hint = hintFor(error, kinds);
  if (hint) process.stderr.write(`${hint}\n`);
  if (!isExpected(error, kinds) && error instanceof Error && error.stack) {
    // A stack means something to a developer only; an operator gets the message and how to see more.
    if (stackWanted()) process.stderr.write(`${error.stack}\n`);
    else process.stderr.write("Run it again with LOG_LEVEL=debug to see where it failed.\n");
  }
  return exitCode.failed;
}
