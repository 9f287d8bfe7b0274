// One PostgreSQL client library under load, in a process of its own so that its CPU is its own: the
// statements of a job read (the key lookup, the job, its videos), run by `concurrency` callers over a
// pool, for `seconds`. Prints "warm" when warmed up, then one JSON line with what it did.
import { createInterface } from "node:readline";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import pg from "pg";
import postgres from "postgres";
import { jobViewColumns, videoViewColumns } from "../../src/jobs/views.js";
import type { Database } from "../../src/store/tables.js";

export type ClientVariant =
  | "kysely+pg"
  | "kysely+postgres.js"
  | "pg"
  | "pg, named statements"
  | "postgres.js"
  | "postgres.js, prepared";

export interface ClientLoadSpec {
  readonly variant: ClientVariant;
  readonly url: string;
  readonly poolSize: number;
  readonly concurrency: number;
  readonly warmupSeconds: number;
  readonly seconds: number;
  readonly keyHash: string;
  readonly workspaceId: string;
  readonly jobId: string;
}

export interface ClientLoadResult {
  readonly statements: number;
  readonly seconds: number;
  readonly userCpuSeconds: number;
  readonly systemCpuSeconds: number;
}

type Run = (text: string, name: string, values: unknown[]) => Promise<unknown[]>;
type Statement = { name: string; text: string; values: unknown[] };

const spec = JSON.parse(process.argv[2] ?? "{}") as ClientLoadSpec;

// The job read's statements as the app writes them (access/authentication.ts, jobs/job-read.ts),
// compiled by Kysely once: every variant runs the same SQL text with the same values.
const compiler = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ max: 1 }) }) });
const compiled = (name: string, query: { compile(): CompiledQuery<unknown> }): Statement => {
  const { sql, parameters } = query.compile();
  return { name, text: sql, values: [...parameters] };
};
const statements: Statement[] = [
  compiled(
    "bench_key_lookup",
    compiler
      .selectFrom("api_keys")
      .innerJoin("workspaces", "workspaces.id", "api_keys.workspace_id")
      .select(["api_keys.id", "api_keys.workspace_id", "api_keys.last_used_at", "workspaces.plan_id"])
      .where("api_keys.key_hash", "=", spec.keyHash)
      .where("api_keys.revoked_at", "is", null),
  ),
  compiled(
    "bench_job_by_id",
    compiler
      .selectFrom("jobs")
      .select([...jobViewColumns, "handed_over_at"])
      .where("id", "=", spec.jobId)
      .where("workspace_id", "=", spec.workspaceId),
  ),
  compiled(
    "bench_videos_of_job",
    compiler
      .selectFrom("videos")
      .select(videoViewColumns)
      .where("job_id", "=", spec.jobId)
      .orderBy("position"),
  ),
];

// PostgreSQL's int8 as a number, as the app reads it (store/postgres/open-postgres.ts).
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20 && format !== "binary") return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function openVariant(): { run: Run; close(): Promise<void> } {
  const { variant, url, poolSize } = spec;
  if (variant === "kysely+pg" || variant === "kysely+postgres.js") {
    const db =
      variant === "kysely+pg"
        ? new Kysely<Database>({
            dialect: new PostgresDialect({
              pool: new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes }),
            }),
          })
        : new Kysely<Database>({
            dialect: new PostgresJSDialect({ postgres: postgres(url, { max: poolSize }) }),
          });
    return {
      run: async (text, _name, values) => (await db.executeQuery(CompiledQuery.raw(text, values))).rows,
      close: () => db.destroy(),
    };
  }
  if (variant === "postgres.js" || variant === "postgres.js, prepared") {
    const sql = postgres(url, { max: poolSize });
    // unsafe() prepares nothing unless asked; unprepared, it first asks the server for the parameters' types.
    const prepare = variant === "postgres.js, prepared";
    return {
      run: async (text, _name, values) => [...(await sql.unsafe(text, values as never[], { prepare }))],
      close: () => sql.end(),
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes });
  const named = variant === "pg, named statements";
  return {
    run: async (text, name, values) =>
      (await pool.query(named ? { name, text, values } : { text, values })).rows,
    close: () => pool.end(),
  };
}

const { run, close } = openVariant();
let statementsRun = 0;
let deadline = Date.now() + spec.warmupSeconds * 1000;
async function caller() {
  while (Date.now() < deadline) {
    // A job read: the key, then the job, then its videos, each after the one before, as the route does.
    for (const statement of statements) {
      const rows = await run(statement.text, statement.name, statement.values);
      if (statement.name !== "bench_videos_of_job" && rows.length !== 1)
        throw new Error(`${statement.name} found ${rows.length} rows`);
      statementsRun += 1;
    }
  }
}
await Promise.all(Array.from({ length: spec.concurrency }, caller));
process.stdout.write("warm\n");
// Waits for the parent's go, so that its measure of PostgreSQL's CPU starts with this window; and, after
// the result, for the parent to end it before the pool's connections (and their backends) go away.
const lines = createInterface({ input: process.stdin });
const nextLine = () => new Promise<void>((resolve) => lines.once("line", () => resolve()));
const inputEnded = new Promise<void>((resolve) => lines.once("close", () => resolve()));
await nextLine();
statementsRun = 0;
const started = performance.now();
const cpuBefore = process.cpuUsage();
deadline = Date.now() + spec.seconds * 1000;
await Promise.all(Array.from({ length: spec.concurrency }, caller));
const cpu = process.cpuUsage(cpuBefore);
const result: ClientLoadResult = {
  statements: statementsRun,
  seconds: (performance.now() - started) / 1000,
  userCpuSeconds: cpu.user / 1e6,
  systemCpuSeconds: cpu.system / 1e6,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
await inputEnded;
await close();
await compiler.destroy();
