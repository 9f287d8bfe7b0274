// The processes behind `serve`, `worker` and `cluster`, loaded only when one of them runs.
import { superviseCluster } from "../cluster.js";
import { ConfigError, loadConfig } from "../config.js";
import type { App } from "../app.js";
import { UsageError } from "./command.js";
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

export async function serve(withWorker: boolean) {
  const app = await buildApp(loadConfig(), { serve: true, work: withWorker });
  const bootstrapped = await app.services.workspaces.bootstrapDefault();
  if (bootstrapped) printBootstrapKey(bootstrapped);
  const address = await app.start();
  app.log.info({ address, worker: app.worker?.id ?? null }, "vidrows is listening");
  stopOnSignals(app);
}

// A worker process never loads the HTTP server's modules (the root imports them only when serving).
export async function runWorker() {
  const app = await buildApp(loadConfig(), { serve: false, work: true });
  await app.start();
  app.log.info({ worker: app.worker?.id }, "vidrows worker is running");
  stopOnSignals(app);
}

/** Migrates and bootstraps once, in the primary, before the children start, then supervises them. */
export async function startCluster(apiProcesses: number, workerProcesses: number) {
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
