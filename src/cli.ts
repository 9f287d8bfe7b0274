#!/usr/bin/env node
// The `vidrows` command: serve the API, run workers, migrate, manage workspaces and credits (see cli/).
// First, before any other module runs (see the file for why).
import "./next-tick-shape.js";
import { runCli } from "./cli/dispatch.js";

// The exit code, not process.exit(): `serve` and `worker` have started when runCli answers, and run on.
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
