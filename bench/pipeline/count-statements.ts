// A preload that counts the statements a `vidrows worker` runs, for reading where a pipeline video's
// time goes (docs/performance.md, "Combined writes: a pipeline video's statements"):
//
//   BENCH_STATEMENT_COUNTS=/tmp/counts NODE_OPTIONS=--import=$PWD/dist/bench/bench/pipeline/count-statements.js \
//     BENCH_PIPELINE_VIDEOS=2000 npm run bench -- --quick --sections=pipeline
//
// (An absolute path: the benchmark runs its children in a folder of their own.) Each worker process
// writes `<dir>/statements-<pid>.txt` as it exits: each statement (placeholders folded) with how often
// it ran and, on PostgreSQL, the server process's CPU while it ran (from /proc/<pid>/schedstat, exact
// since one connection runs one statement at a time) and its round trip.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { nodeSqlite } from "../../src/store/sqlite/node-sqlite-driver.js";
import { chosenSqliteDriver } from "../../src/store/sqlite/sqlite-driver.js";

/** better-sqlite3 exports its Database; a statement's class is reached through one. */
function betterSqlite3Statement(require: NodeJS.Require): object {
  const Sqlite = require("better-sqlite3") as new (path: string) => {
    prepare(sql: string): object;
    close(): void;
  };
  const probe = new Sqlite(":memory:");
  const statement = Object.getPrototypeOf(probe.prepare("select 1")) as object;
  probe.close();
  return statement;
}

interface Tally {
  runs: number;
  serverNs: number;
  roundTripNs: number;
}

const directory = process.env.BENCH_STATEMENT_COUNTS;
if (directory && process.argv.includes("worker")) countStatements(directory);

function countStatements(into: string): void {
  const require = createRequire(import.meta.url);
  const tallies = new Map<string, Tally>();
  const tallyOf = (sql: unknown): Tally => {
    const key = String(sql)
      .replace(/\$\d+/g, "?")
      .replace(/(\?, )+\?/g, "?..")
      .replace(/(\(\?\.\.\), )+\(\?\.\.\)/g, "(?..)..")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 120);
    let tally = tallies.get(key);
    if (!tally) {
      tally = { runs: 0, serverNs: 0, roundTripNs: 0 };
      tallies.set(key, tally);
    }
    return tally;
  };
  const cpuNs = (pid: number) => {
    try {
      return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      return 0;
    }
  };

  const pg = require("pg") as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: { processID?: number }, ...args: unknown[]) {
    const [config] = args;
    const tally = tallyOf(typeof config === "string" ? config : (config as { text?: string })?.text);
    tally.runs++;
    const pid = this.processID;
    if (!pid) return query.apply(this, args);
    const before = cpuNs(pid);
    const startedAt = process.hrtime.bigint();
    const result = query.apply(this, args);
    if (result instanceof Promise) {
      result.then(
        () => {
          tally.serverNs += cpuNs(pid) - before;
          tally.roundTripNs += Number(process.hrtime.bigint() - startedAt);
        },
        () => {},
      );
    }
    return result;
  };

  // The statements of the driver the worker runs on (never better-sqlite3 where node:sqlite is chosen).
  const driver = chosenSqliteDriver();
  const statement = (
    driver === "node:sqlite" ? nodeSqlite()?.StatementSync.prototype : betterSqlite3Statement(require)
  ) as Record<string, unknown>;
  for (const method of ["run", "all", "get", "iterate"]) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    statement[method] = function (this: { source?: string; sourceSQL?: string }, ...args: unknown[]) {
      tallyOf(this.source ?? this.sourceSQL).runs++;
      return original.apply(this, args);
    };
  }

  process.on("exit", () => {
    const rows = [...tallies].sort(([, a], [, b]) => b.runs - a.runs);
    const total = rows.reduce((sum, [, tally]) => sum + tally.runs, 0);
    const ms = (ns: number) => (ns / 1e6).toFixed(0).padStart(8);
    const lines = [
      `${total} statements`,
      "   runs server CPU ms round trips ms  statement",
      ...rows.map(
        ([sql, t]) => `${String(t.runs).padStart(7)} ${ms(t.serverNs)}      ${ms(t.roundTripNs)}  ${sql}`,
      ),
    ];
    writeFileSync(join(into, `statements-${process.pid}.txt`), `${lines.join("\n")}\n`);
  });
}
