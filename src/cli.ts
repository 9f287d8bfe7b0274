#!/usr/bin/env node
// The `vidrows` command: serve the API, migrate the database, manage workspaces and credits.
// First, before any other module runs (see the file for why).
import "./next-tick-shape.js";
import { parseArgs } from "node:util";
import { clusterRole, superviseCluster } from "./cluster.js";
import { type Config, ConfigError, loadConfig, loadDotEnv } from "./config.js";
import type { App, AppOptions } from "./app.js";
import { UnknownPlanError, UnknownWorkspaceError } from "./workspaces/workspaces.js";

const usage = `Usage: vidrows <command> [options]

Commands:
  serve [--no-worker]                          serve the API (default: http://127.0.0.1:8080) and a worker
  worker                                       run a worker only: process queued videos
  cluster --api <n> --workers <m>              n API processes sharing one port and m workers, supervised
  migrate                                      bring the database to the latest version
  workspace create --name <name> --plan <plan> create a workspace and print its first API key
  workspace set-plan <workspace_id> <plan>     move a workspace to another plan
  credits grant <workspace_id> <credits>       add credits to a workspace's balance

Options:
  --json      print machine-readable output
  --help      show this text

Settings come from the environment and a .env file; see the README.`;

class UsageError extends Error {}

function print(json: boolean, value: Record<string, unknown>, text: string) {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

/** The composition root, loaded when a command needs it (`--help` and usage mistakes never do). */
async function buildApp(config: Config, roles: AppOptions): Promise<App> {
  const { createApp } = await import("./app.js");
  return createApp(config, roles);
}

/** For an administration command: the store and the services, neither serving nor working. */
async function withApp<T>(run: (app: App) => Promise<T>): Promise<T> {
  const app = await buildApp(loadConfig(), { serve: false, work: false });
  try {
    return await run(app);
  } finally {
    await app.stop();
  }
}

function countOption(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count > 64)
    throw new UsageError(`${name} must be a whole number from 0 to 64; got "${raw}".`);
  return count;
}

/** Migrates and bootstraps once, in the primary, before the children start, then supervises them. */
async function startCluster(apiProcesses: number, workerProcesses: number) {
  if (apiProcesses + workerProcesses === 0) throw new UsageError("cluster needs at least one process.");
  const config = loadConfig();
  if (workerProcesses > 0 && config.model === null) {
    throw new ConfigError(
      "Worker processes need a language model: set VIDROWS_LLM_API_KEY (or OPENAI_API_KEY) or VIDROWS_LLM_BASE_URL.",
    );
  }
  const bootstrapped = await withApp(({ services }) => services.workspaces.bootstrapDefault());
  if (bootstrapped) printBootstrapKey(bootstrapped);
  await superviseCluster({ apiProcesses, workerProcesses });
}

function printBootstrapKey(created: { workspaceId: string; apiKey: string }) {
  process.stdout.write(
    `\nCreated workspace "default" (${created.workspaceId}). Its API key, shown this once:\n\n  ${created.apiKey}\n\n`,
  );
}

function positiveCredits(raw: string | undefined): number {
  const credits = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(credits) || credits < 1) {
    throw new UsageError(`credits must be a whole number of at least 1; got "${raw ?? ""}".`);
  }
  return credits;
}

/** Stops the app on SIGINT or SIGTERM: requests in flight finish, the worker hands back what it holds. */
function stopOnSignals(app: App) {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "stopping");
    // A client that never reads its response would hold the HTTP server open for ever: after the
    // worker's grace and a margin, the process ends regardless (leases make that safe).
    const deadlineMs = (app.config.worker.shutdownGraceSeconds + 15) * 1000;
    setTimeout(() => {
      app.log.error({ deadlineMs }, "stopping took too long; exiting");
      process.exit(1);
    }, deadlineMs).unref();
    app.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "could not stop cleanly");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

// A worker process never loads the HTTP server's modules (the root imports them only when serving).
async function runWorker() {
  const app = await buildApp(loadConfig(), { serve: false, work: true });
  await app.start();
  app.log.info({ worker: app.worker?.id }, "vidrows worker is running");
  stopOnSignals(app);
}

async function serve(withWorker: boolean) {
  const app = await buildApp(loadConfig(), { serve: true, work: withWorker });
  const bootstrapped = await app.services.workspaces.bootstrapDefault();
  if (bootstrapped) printBootstrapKey(bootstrapped);
  const address = await app.start();
  app.log.info({ address, worker: app.worker?.id ?? null }, "vidrows is listening");
  stopOnSignals(app);
}

async function main(argv: string[]): Promise<void> {
  // Every number this CLI takes is at least 1; without this check parseArgs would call "-5" an unknown option.
  const negative = argv.find((arg) => /^-\d/.test(arg));
  if (negative !== undefined) {
    throw new UsageError(`"${negative}" is negative; numbers given to vidrows are whole and at least 1.`);
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
      "no-worker": { type: "boolean", default: false },
      name: { type: "string" },
      plan: { type: "string" },
      api: { type: "string" },
      workers: { type: "string" },
    },
  });
  const [command, sub, ...rest] = positionals;
  const json = values.json ?? false;
  if (values.help || command === undefined) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  loadDotEnv();

  if (command === "serve") return serve(!values["no-worker"]);
  if (command === "worker") return runWorker();
  if (command === "cluster") {
    const role = clusterRole();
    if (role === "api") return serve(false);
    if (role === "worker") return runWorker();
    return startCluster(countOption(values.api, "--api", 2), countOption(values.workers, "--workers", 2));
  }

  if (command === "migrate") {
    // Building the app brings the database up to date; what it applied is printed.
    const applied = await withApp(async (app) => app.migrationsApplied);
    print(
      json,
      { applied },
      applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.",
    );
    return;
  }

  if (command === "workspace" && sub === "create") {
    const name = values.name?.trim();
    if (!name || name.length > 100)
      throw new UsageError("workspace create needs --name <name> (1 to 100 characters).");
    if (!values.plan) throw new UsageError("workspace create needs --plan <plan>.");
    const plan = values.plan;
    const created = await withApp(({ services }) => services.workspaces.create(name, plan));
    print(
      json,
      { workspace_id: created.workspaceId, api_key: created.apiKey },
      `Workspace ${created.workspaceId} created on plan ${plan}.\nIts API key, shown this once: ${created.apiKey}`,
    );
    return;
  }

  if (command === "workspace" && sub === "set-plan") {
    const [workspaceId, planId] = rest;
    if (!workspaceId || !planId) throw new UsageError("workspace set-plan needs <workspace_id> <plan>.");
    const row = await withApp(({ services }) => services.workspaces.setPlan(workspaceId, planId));
    print(
      json,
      { workspace_id: row.id, plan: row.plan_id, balance: row.balance },
      `Workspace ${row.id} is now on plan ${row.plan_id}; balance ${row.balance} credits.`,
    );
    return;
  }

  if (command === "credits" && sub === "grant") {
    const [workspaceId, rawCredits] = rest;
    if (!workspaceId) throw new UsageError("credits grant needs <workspace_id> <credits>.");
    const credits = positiveCredits(rawCredits);
    const row = await withApp(({ services }) => services.workspaces.grantCredits(workspaceId, credits));
    print(
      json,
      { workspace_id: row.id, granted: credits, balance: row.balance },
      `Granted ${credits} credits to ${row.id}; balance ${row.balance} credits.`,
    );
    return;
  }

  throw new UsageError(`Unknown command "${positionals.join(" ")}".`);
}

const helpHint = "Run `vidrows --help` to see the commands and their arguments.";

/** What to do next, after the message of an error the user can fix. */
function hintFor(error: unknown): string | null {
  if (error instanceof UnknownWorkspaceError) {
    return "Check the id: it is the workspace_id that `vidrows workspace create` printed.";
  }
  if (error instanceof ConfigError) return "Fix the setting in the environment or in .env, then start again.";
  if (isParseArgsError(error)) return helpHint;
  return null;
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usageMistake = error instanceof UsageError || isParseArgsError(error);
  const known =
    usageMistake ||
    error instanceof ConfigError ||
    error instanceof UnknownPlanError ||
    error instanceof UnknownWorkspaceError;
  process.stderr.write(`vidrows: ${(error as Error).message}\n`);
  const hint = hintFor(error);
  if (hint) process.stderr.write(`${hint}\n`);
  if (error instanceof UsageError) process.stderr.write(`\n${usage}\n`);
  if (!known) process.stderr.write(`${(error as Error).stack ?? ""}\n`);
  process.exitCode = usageMistake ? 2 : 1;
});
