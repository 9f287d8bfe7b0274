// A paced load generator process: runs one paced load (paced-load.ts) with the spec given as JSON in
// argv[2] and prints one JSON summary line, so the load never shares an event loop with the server.
import { type PacedSpec, runPaced } from "./paced-load.js";

const summary = await runPaced(JSON.parse(process.argv[2] ?? "{}") as PacedSpec);
process.stdout.write(`${JSON.stringify(summary)}\n`);
