// Settings, read once from the environment into a frozen object; a bad value stops start-up with its name.
import { existsSync } from "node:fs";
import { loadPlanTable, type PlanTable } from "./plans.js";

export type DatabaseTarget = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

export interface Config {
  readonly database: DatabaseTarget;
  readonly host: string;
  readonly port: number;
  readonly plans: PlanTable;
  /** Requests per minute allowed to one client address that has no usable key. */
  readonly anonymousRequestsPerMinute: number;
  readonly logLevel: string;
  readonly trustProxy: boolean;
}

export class ConfigError extends Error {}

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

export function parseDatabaseTarget(raw: string | undefined): DatabaseTarget {
  const value = raw === undefined || raw === "" ? "./data/vidrows.db" : raw;
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: "postgres", url: value };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError(`DATABASE_URL must be a SQLite file path or a postgres:// URL; got "${value}".`);
  }
  return { kind: "sqlite", path: value };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || "info";
  if (!logLevels.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(", ")}; got "${logLevel}".`);
  }
  let plans: PlanTable;
  try {
    plans = loadPlanTable(env.VIDROWS_PLANS || undefined);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return Object.freeze({
    database: parseDatabaseTarget(env.DATABASE_URL),
    host: env.HOST || "127.0.0.1",
    port: integerSetting(env, "PORT", 8080, 0, 65535),
    plans,
    anonymousRequestsPerMinute: integerSetting(env, "VIDROWS_ANONYMOUS_RPM", 60, 1, 1_000_000_000),
    logLevel,
    trustProxy: env.VIDROWS_TRUST_PROXY === "1",
  });
}

/** Reads `.env` from the working directory, if there is one; real environment variables win. */
export function loadDotEnv(path = ".env"): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
