// The composition root as the CLI's commands use it; it and the settings load only when a command runs.
import type { Config } from "../config.js";
import type { App, AppOptions } from "../app.js";

/** Builds the app for a command; the app's module is loaded here, not when the CLI starts. */
export async function buildApp(config: Config, roles: AppOptions): Promise<App> {
  const { createApp } = await import("../app.js");
  return createApp(config, roles);
}

/** For an administration command: the store and the services, neither serving nor working, then stopped. */
export async function withApp<T>(run: (app: App) => Promise<T>): Promise<T> {
  const { loadConfig } = await import("../config.js");
  const app = await buildApp(loadConfig(), { serve: false, work: false });
  try {
    return await run(app);
  } finally {
    await app.stop();
  }
}

export function printBootstrapKey(created: { workspaceId: string; apiKey: string }): void {
  process.stdout.write(
    `\nCreated workspace "default" (${created.workspaceId}). Its API key, shown this once:\n\n  ${created.apiKey}\n\n`,
  );
}
