// The processes behind `serve`, `worker` and `cluster`, loaded only when one of them runs.
import { superviseCluster } from "../cluster.js";
import { type Config, ConfigError, loadConfig } from "../config.js";
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

/** A failure to listen that HOST or PORT explains, as a ConfigError naming them; else null. */
function explainListenFailure(error: unknown, config: Config): ConfigError | null {
  const code = (error as { code?: unknown }).code;
  const where = `${config.host}:${config.port}`;
  switch (code) {
    case "EADDRINUSE":
      return new ConfigError(
        `Another process is already listening on ${where} (PORT ${config.port}, HOST ${config.host}).`,
        "Set PORT to a free port, or stop the other process (`ss -ltnp` shows which it is), then start again.",
      );
    case "EACCES":
      return new ConfigError(
        `This process may not listen on ${where}: ports below 1024 need privileges (PORT ${config.port}).`,
        "Set PORT to 1024 or above (the default is 8080) and put a proxy in front if you need port 80 or 443, then start again.",
      );
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new ConfigError(
        `HOST is "${config.host}", which is not an address of this machine (${String(code)}).`,
        "Set HOST to one of this machine's addresses, such as 127.0.0.1 or 0.0.0.0 (every interface), then start again.",
      );
  }
  return null;
}

export async function serve(withWorker: boolean) {
  const app = await buildApp(loadConfig(), { serve: true, work: withWorker });
  const bootstrapped = await app.services.workspaces.bootstrapDefault();
  if (bootstrapped) printBootstrapKey(bootstrapped);
  let address: string | undefined;
  try {
    address = await app.start();
  } catch (error) {
    await app.stop().catch(() => {});
    throw explainListenFailure(error, app.config) ?? error;
  }
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
