#!/usr/bin/env node
// The `vidrows` command: serve the API, run workers, migrate, manage workspaces and credits (see cli/).
import { runCli } from "./cli/dispatch.js";

// The exit code, not process.exit(): `serve` and `worker` have started when runCli answers, and run on.
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
