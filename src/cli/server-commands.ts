// The commands that run for as long as the process lives: `serve`, `worker` and `cluster`.
import { clusterRole } from "../cluster.js";
import { type Command, UsageError } from "./command.js";

// What they run is loaded when one runs: help and version stay quick.
const processes = () => import("./server-processes.js");

function processCount(raw: string | boolean | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const count = Number(raw);
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || count > 64) {
    throw new UsageError(`${name} must be a whole number from 0 to 64; got "${String(raw)}".`);
  }
  return count;
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
    run: async ({ options }) => (await processes()).serve(options["no-worker"] !== true),
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
    run: async () => (await processes()).runWorker(),
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
      const { serve, runWorker, startCluster } = await processes();
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
