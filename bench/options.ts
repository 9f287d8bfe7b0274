// What one benchmark run does, from flags (`npm run bench -- --quick --sections=http`) and BENCH_* variables.
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BenchDialect } from "./support/databases.js";
import { mechanismSwitches, type MechanismSwitch, switchesNamed } from "./support/switches.js";

export type Section = "prompt-cost" | "http" | "pipeline" | "scale" | "history" | "pg-clients" | "soak";
const allSections: Section[] = ["prompt-cost", "http", "pipeline", "scale", "history", "pg-clients", "soak"];
/** Run only when asked for (`--sections=soak`): it takes half an hour per database. */
const defaultSections: Section[] = allSections.filter((section) => section !== "soak");

export interface BenchOptions {
  readonly quick: boolean;
  readonly sections: readonly Section[];
  /** HTTP section: only the endpoints whose name contains one of these, or is one starting "=" without it (all when empty). */
  readonly endpoints: readonly string[];
  /** Mechanisms measured again with their switch off, beside the default, in the HTTP and pipeline sections. */
  readonly switches: readonly MechanismSwitch[];
  readonly dialects: readonly BenchDialect[];
  /** The PostgreSQL server to make benchmark databases on (DATABASE_URL), if any. */
  readonly postgresUrl: string | undefined;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** HTTP section: alternating pairs (the endpoint, then the bare server) per endpoint; the median pair is reported. */
  readonly rounds: number;
  /** The share of each endpoint's measured requests per second offered to it and the bare server in the paced run. */
  readonly pacedShare: number;
  /** Jobs in the workspace the HTTP endpoints are loaded on. */
  readonly jobs: number;
  /** Videos the instant pipeline settles. */
  readonly pipelineVideos: number;
  /** Videos (of several chunks each) the pipeline runs against a model that takes a second. */
  readonly slowModelVideos: number;
  readonly slowModelDelayMs: number;
  readonly modelConcurrency: number;
  /** VIDROWS_WORKER_VIDEOS for the pipeline; undefined keeps the server's default. */
  readonly workerVideos: number | undefined;
  /** Videos the scale section runs through one worker, then two. */
  readonly scaleVideos: number;
  /** Workspaces the scale section's videos are spread over. */
  readonly scaleWorkspaces: number;
  /** How long the scale section's model takes to answer, in milliseconds. */
  readonly scaleModelDelayMs: number;
  /** VIDROWS_WORKER_VIDEOS and VIDROWS_MODEL_CONCURRENCY of each worker in the scale section. */
  readonly scaleWorkerVideos: number;
  readonly historySizes: readonly number[];
  /** How long the soak loads its server, in minutes. */
  readonly soakMinutes: number;
  /** The soak's steady rate, requests per second, and the connections it is sent from. */
  readonly soakRate: number;
  readonly soakConnections: number;
  /** Seconds between two samples of the soaked server's memory. */
  readonly soakSampleSeconds: number;
  /** LOG_LEVEL of the measured server. */
  readonly logLevel: string;
  /** Write `--cpu-prof` profiles of the measured processes into `<resultsDir>/profiles`. */
  readonly profile: boolean;
  readonly resultsDir: string;
}

const usage = `npm run bench -- [--quick] [--sections=prompt-cost,http,pipeline,scale,history,pg-clients,soak] [--endpoints=<part of a name>|=<whole name>,...] [--dialects=sqlite,postgres] [--switches=<name>,...|all] [--profile] [--soak-minutes=30]

Every section but soak runs by default; soak (30 minutes per database) only when named.

Every option also reads from the environment: BENCH_QUICK=1, BENCH_SECTIONS, BENCH_ENDPOINTS, BENCH_DIALECTS, BENCH_SWITCHES, BENCH_PROFILE=1,
BENCH_CONNECTIONS (50), BENCH_DURATION (seconds per endpoint, 5), BENCH_WARMUP (2), BENCH_PACED_PERCENT (50), BENCH_JOBS (100000),
BENCH_PIPELINE_VIDEOS (2000), BENCH_SLOW_VIDEOS (128), BENCH_MODEL_CONCURRENCY (64), BENCH_WORKER_VIDEOS,
BENCH_SCALE_VIDEOS (1500), BENCH_SCALE_WORKSPACES (10), BENCH_SCALE_MODEL_MS (200), BENCH_SCALE_WORKER_VIDEOS (16), BENCH_HISTORY_SIZES (1000,1000000), BENCH_LOG_LEVEL (info),
BENCH_SOAK_MINUTES (30), BENCH_SOAK_RATE (requests per second, 200), BENCH_SOAK_CONNECTIONS (16), BENCH_SOAK_SAMPLE_SECONDS (5). PostgreSQL runs too when DATABASE_URL is a
postgres:// URL: the benchmark creates (and drops) databases of its own on that server.`;

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number; got "${raw}".`);
  return Number(raw);
}

/** A number above zero (fractions allowed: `--soak-minutes=0.5` while developing). */
function positiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a number above 0; got "${raw}".`);
  return value;
}

function list(raw: string | undefined): string[] | undefined {
  return raw === undefined || raw === ""
    ? undefined
    : raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
}

export function readOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean" },
      sections: { type: "string" },
      endpoints: { type: "string" },
      dialects: { type: "string" },
      switches: { type: "string" },
      profile: { type: "boolean" },
      "soak-minutes": { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const quick = values.quick ?? process.env.BENCH_QUICK === "1";
  const sections = (list(values.sections ?? process.env.BENCH_SECTIONS) ?? defaultSections) as Section[];
  for (const section of sections) {
    if (!allSections.includes(section))
      throw new Error(`Unknown section "${section}"; the sections are ${allSections.join(", ")}.`);
  }
  const switchNames = list(values.switches ?? process.env.BENCH_SWITCHES) ?? [];
  const switches = switchNames.includes("all") ? [...mechanismSwitches] : switchesNamed(switchNames);
  const databaseUrl = process.env.DATABASE_URL;
  const postgresUrl = databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl) ? databaseUrl : undefined;
  const dialects = (list(values.dialects ?? process.env.BENCH_DIALECTS) ??
    (postgresUrl ? ["sqlite", "postgres"] : ["sqlite"])) as BenchDialect[];
  for (const dialect of dialects) {
    if (dialect !== "sqlite" && dialect !== "postgres") throw new Error(`Unknown dialect "${dialect}".`);
    if (dialect === "postgres" && !postgresUrl)
      throw new Error("PostgreSQL needs DATABASE_URL=postgres://...");
  }
  const workerVideos = integer("BENCH_WORKER_VIDEOS", 0);
  const soakMinutes = positiveNumber(
    "--soak-minutes",
    values["soak-minutes"] ?? process.env.BENCH_SOAK_MINUTES,
    quick ? 3 : 30,
  );
  return {
    quick,
    sections,
    endpoints: list(values.endpoints ?? process.env.BENCH_ENDPOINTS) ?? [],
    switches,
    dialects,
    postgresUrl,
    connections: integer("BENCH_CONNECTIONS", 50),
    durationSeconds: integer("BENCH_DURATION", quick ? 2 : 5),
    warmupSeconds: integer("BENCH_WARMUP", quick ? 1 : 2),
    rounds: Math.max(1, integer("BENCH_ROUNDS", quick ? 1 : 3)),
    pacedShare: integer("BENCH_PACED_PERCENT", 50) / 100,
    jobs: integer("BENCH_JOBS", quick ? 10_000 : 100_000),
    pipelineVideos: integer("BENCH_PIPELINE_VIDEOS", quick ? 500 : 2000),
    slowModelVideos: integer("BENCH_SLOW_VIDEOS", quick ? 64 : 128),
    slowModelDelayMs: 1000,
    modelConcurrency: integer("BENCH_MODEL_CONCURRENCY", 64),
    workerVideos: workerVideos === 0 ? undefined : workerVideos,
    scaleVideos: integer("BENCH_SCALE_VIDEOS", quick ? 600 : 1500),
    scaleWorkspaces: Math.max(1, integer("BENCH_SCALE_WORKSPACES", 10)),
    scaleModelDelayMs: integer("BENCH_SCALE_MODEL_MS", 200),
    scaleWorkerVideos: Math.max(1, integer("BENCH_SCALE_WORKER_VIDEOS", 16)),
    historySizes: (
      list(process.env.BENCH_HISTORY_SIZES) ?? (quick ? ["1000", "100000"] : ["1000", "1000000"])
    ).map(Number),
    soakMinutes,
    soakRate: Math.max(1, integer("BENCH_SOAK_RATE", 200)),
    soakConnections: Math.max(1, integer("BENCH_SOAK_CONNECTIONS", 16)),
    soakSampleSeconds: Math.max(1, integer("BENCH_SOAK_SAMPLE_SECONDS", 5)),
    logLevel: process.env.BENCH_LOG_LEVEL || "info",
    profile: values.profile ?? process.env.BENCH_PROFILE === "1",
    resultsDir: fileURLToPath(new URL("../../../bench/results/", import.meta.url)),
  };
}
