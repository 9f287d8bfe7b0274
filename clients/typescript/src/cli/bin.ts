#!/usr/bin/env node
// The `vidrows-client` command: the client commands on this process's arguments, streams and environment.
import { runClientCli } from "./run-client-cli.js";

process.exitCode = await runClientCli(process.argv.slice(2));
