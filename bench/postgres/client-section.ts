// The PostgreSQL client library, measured (why the server stays on `pg`). The job read's statements, the same SQL
// and values, through `pg` and through postgres.js (each with Kysely's dialect for it, and bare), at
// the concurrency and pool size of an API process; statements per second and CPU per statement of the
// client process and of PostgreSQL. Each variant runs in a process of its own, in alternating order.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ClientLoadResult, ClientLoadSpec, ClientVariant } from "./client-load.js";
import { freshDatabase } from "../support/databases.js";
import { log } from "../support/log.js";
import type { BenchOptions } from "../options.js";
import { postgresCpuMeter, type PostgresCpuMeter } from "./postgres-cpu.js";
import { seedHistory, seedWorkspace } from "../support/seed.js";
import { hashApiKey } from "../../src/domain/api-key-material.js";

export const clientVariants: ClientVariant[] = [
  "kysely+pg",
  "kysely+postgres.js",
  "pg",
  "pg, named statements",
  "postgres.js",
  "postgres.js, prepared",
];

export interface ClientRun {
  readonly variant: ClientVariant;
  readonly statementsPerSecond: number;
  /** The client process's CPU per statement, µs: user and kernel. */
  readonly clientCpuMicros: number;
  readonly clientSystemCpuMicros: number;
  /** PostgreSQL's backends' CPU per statement, µs. */
  readonly postgresCpuMicros: number;
}

export interface ClientSectionResult {
  readonly concurrency: number;
  readonly poolSize: number;
  readonly seconds: number;
  /** Every run, in the order they ran. */
  readonly runs: ClientRun[];
  /** Per variant, the mean of its runs. */
  readonly variants: ClientRun[];
}

const clientPath = fileURLToPath(new URL("./client-load.js", import.meta.url));

function runVariant(spec: ClientLoadSpec, postgres: PostgresCpuMeter): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [clientPath, JSON.stringify(spec)], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    let end: Promise<() => Promise<{ backends: number }>> | undefined;
    let spent: Promise<{ backends: number }> | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (end === undefined && stdout.includes("warm\n")) {
        end = postgres.begin();
        void end.then(() => child.stdin.write("go\n"));
      }
      // The result is out: PostgreSQL's window ends while the client's connections are still open.
      if (spent === undefined && end !== undefined && /\n\{.*\}\n/.test(stdout)) {
        spent = end.then((finish) => finish());
        void spent.finally(() => child.stdin.end());
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), (spec.warmupSeconds + spec.seconds + 60) * 1000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").pop() ?? "";
      if (code !== 0 || !line.startsWith("{") || spent === undefined) {
        reject(new Error(`${spec.variant} failed (exit ${code}):\n${stdout}\n${stderr}`));
        return;
      }
      const result = JSON.parse(line) as ClientLoadResult;
      void spent.then((spentCpu) => {
        const perStatement = (seconds: number) => (seconds * 1e6) / Math.max(1, result.statements);
        resolve({
          variant: spec.variant,
          statementsPerSecond: result.statements / result.seconds,
          clientCpuMicros: perStatement(result.userCpuSeconds + result.systemCpuSeconds),
          clientSystemCpuMicros: perStatement(result.systemCpuSeconds),
          postgresCpuMicros: perStatement(spentCpu.backends),
        });
      }, reject);
    });
  });
}

export async function runClientSection(options: BenchOptions): Promise<ClientSectionResult> {
  const database = await freshDatabase("postgres", options.postgresUrl);
  const postgres = await postgresCpuMeter(
    options.postgresUrl as string,
    new URL(database.url).pathname.slice(1),
  );
  try {
    const workspace = await seedWorkspace(database.store);
    const history = await seedHistory(database.store, workspace, {
      jobs: 1000,
      maxVideosPerJob: 5,
      runningJobs: 0,
      notHandedOver: 0,
    });
    // An API process's pool and a load's worth of requests in flight.
    const poolSize = 10;
    const concurrency = options.connections;
    const seconds = options.durationSeconds;
    const base = {
      url: database.url,
      poolSize,
      concurrency,
      warmupSeconds: options.warmupSeconds,
      seconds,
      keyHash: hashApiKey(workspace.apiKey),
      workspaceId: workspace.workspaceId,
      jobId: history.handedOverJobId,
    };
    const runs: ClientRun[] = [];
    // Forwards, then backwards: each variant's mean is less skewed by drift in the machine's load.
    const rounds = options.quick ? 1 : 2;
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? clientVariants : [...clientVariants].reverse();
      for (const variant of order) {
        const run = await runVariant({ ...base, variant }, postgres);
        runs.push(run);
        log(
          `pg-clients: ${variant}: ${run.statementsPerSecond.toFixed(0)} statements/s, client ${run.clientCpuMicros.toFixed(1)} us CPU/statement (${run.clientSystemCpuMicros.toFixed(1)} kernel), PostgreSQL ${run.postgresCpuMicros.toFixed(1)} us`,
        );
      }
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const variants = clientVariants.map((variant) => {
      const mine = runs.filter((run) => run.variant === variant);
      return {
        variant,
        statementsPerSecond: mean(mine.map((r) => r.statementsPerSecond)),
        clientCpuMicros: mean(mine.map((r) => r.clientCpuMicros)),
        clientSystemCpuMicros: mean(mine.map((r) => r.clientSystemCpuMicros)),
        postgresCpuMicros: mean(mine.map((r) => r.postgresCpuMicros)),
      };
    });
    return { concurrency, poolSize, seconds, runs, variants };
  } finally {
    await postgres.close();
    await database.drop();
  }
}
