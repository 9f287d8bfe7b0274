#!/usr/bin/env node
// The `vidrows-client` command. A file of the package itself, not one the build writes: npm links a
// package's commands when it installs it, and skips one whose file does not exist yet, so in a fresh
// clone of the repository (nothing built) a command in dist/ would never be linked and `npx
// vidrows-client` would look for it on the registry instead.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cli/run-client-cli.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "vidrows-client is not built yet: run `npm run build` in the repository (`npm start` builds it too).\n",
  );
  process.exit(1);
}
const { runClientCli } = await import(entry.href);
process.exitCode = await runClientCli(process.argv.slice(2));
