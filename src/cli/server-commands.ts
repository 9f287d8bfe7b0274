// The commands that run for as long as the process lives: `serve`, `worker` and `cluster`.
import { clusterRole, superviseCluster } from "../cluster.js";
import { ConfigError, loadConfig } from "../config.js";
import type { App } from "../app.js";
import { type Command, UsageError } from "./command.js";
import { buildApp, printBootstrapKey, withApp } from "./run-app.js";

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

async function serve(withWorker: boolean) {
  const app = await buildApp(loadConfig(), { serve: true, work: withWorker });
  const bootstrapped = await app.services.workspaces.bootstrapDefault();
  if (bootstrapped) printBootstrapKey(bootstrapped);
  const address = await app.start();
  app.log.info({ address, worker: app.worker?.id ?? null }, "vidrows is listening");
  stopOnSignals(app);
}

// A worker process never loads the HTTP server's modules (the root imports them only when serving).
async function runWorker() {
  const app = await buildApp(loadConfig(), { serve: false, work: true });
  await app.start();
  app.log.info({ worker: app.worker?.id }, "vidrows worker is running");
  stopOnSignals(app);
}

function processCount(raw: string | boolean | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const count = Number(raw);
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || count > 64) {
    throw new UsageError(`${name} must be a whole number from 0 to 64; got "${String(raw)}".`);
  }
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

const firstStart =
  'On the first start against an empty database it creates the workspace "default" on plan pro and prints its API key once.';

export const serverCommands: readonly Command[] = [
  {
    words: ["serve"],
    synopsis: "[--no-worker]",
    summary: "the API (default http://127.0.0.1:8080) and a worker",
    description: `Serves the HTTP API on HOST and PORT, and runs a worker that processes queued videos (this is what \`npm start\` runs). ${firstStart} It stops cleanly on SIGINT or SIGTERM.`,
    args: [],
    options: {
      "no-worker": {
        type: "boolean",
        description: "serve the API only; run `vidrows worker` processes elsewhere (PostgreSQL)",
      },
    },
    examples: [
      "vidrows serve",
      "PORT=3000 DATABASE_URL=postgres://user@db/vidrows vidrows serve --no-worker",
    ],
    run: async ({ options }) => serve(options["no-worker"] !== true),
  },
  {
    words: ["worker"],
    synopsis: "",
    summary: "a worker only: process queued videos",
    description:
      "Runs a worker without an HTTP server: it claims queued videos, fetches their captions and asks the language model (VIDROWS_LLM_*), and delivers webhooks. Run as many as you like against one PostgreSQL database.",
    args: [],
    options: {},
    examples: ["DATABASE_URL=postgres://user@db/vidrows VIDROWS_LLM_API_KEY=sk-... vidrows worker"],
    run: async () => runWorker(),
  },
  {
    words: ["cluster"],
    synopsis: "[--api <n>] [--workers <m>]",
    summary: "n API processes on one port and m workers",
    description:
      "Starts API processes that share one port and worker processes on this machine, restarts any that dies, and stops them all on SIGINT or SIGTERM. For trying scale-out; across machines, run `serve --no-worker` and `worker` yourself.",
    args: [],
    options: {
      api: { type: "string", value: "<n>", description: "API processes, 0 to 64 (default 2)" },
      workers: { type: "string", value: "<m>", description: "worker processes, 0 to 64 (default 2)" },
    },
    examples: ["vidrows cluster --api 2 --workers 2", "vidrows cluster --api 4 --workers 0"],
    run: async ({ options }) => {
      // The children run this same command line: their role, set by the primary, decides what they are.
      const role = clusterRole();
      if (role === "api") return serve(false);
      if (role === "worker") return runWorker();
      return startCluster(
        processCount(options.api, "--api", 2),
        processCount(options.workers, "--workers", 2),
      );
    },
  },
];
