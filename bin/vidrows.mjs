#!/usr/bin/env node
// The `vidrows` command as a checkout runs it: built first if its sources changed (saying so), then the built CLI.
import { fileURLToPath } from "node:url";
import { buildIfStale } from "../scripts/build-if-stale.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
if (buildIfStale(root)) await import("../dist/cli.js");
else process.exitCode = 1;
