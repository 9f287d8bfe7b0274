// Queries built and compiled once, then run many times with new values: for the statements every request runs.
import { randomBytes } from "node:crypto";
import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";
import type { Database } from "./tables.js";

/** The query runner of a store or of an open transaction: both run a compiled query the same way. */
export type QueryRunner = Pick<Kysely<Database>, "executeQuery">;

/**
 * A stand-in for an argument while the query is built. Its type is `never` so that it fits any value
 * position of Kysely's builder; at run time it is a string no real value can equal.
 */
type Slot = never;

export interface PreparedQuery<Args extends readonly unknown[], Row> {
  /** Runs the query with these values, on the store or inside a transaction. */
  run(runner: QueryRunner, ...args: Args): Promise<QueryResult<Row>>;
  /** The rows the query returns. */
  rows(runner: QueryRunner, ...args: Args): Promise<Row[]>;
  /** The first row, or undefined. */
  first(runner: QueryRunner, ...args: Args): Promise<Row | undefined>;
}

// No constant a query is written with can equal a slot. (No NUL in it: PostgreSQL refuses those in text.)
const slotMark = `vidrows-slot-${randomBytes(6).toString("hex")}:`;

/**
 * Kysely builds and compiles a query from its builder on every call, which costs more than SQLite
 * takes to run a point lookup. A prepared query is built once per dialect, with slots where the
 * arguments go; each run only puts the values into the compiled parameter list. (On SQLite the store
 * also keeps the statement prepared, since its SQL text is the same on every run.)
 *
 * `build` receives one slot per argument and must use each of them as a plain value (a `where`
 * operand, a `set` or `values` field, a `limit`): anything that would change the SQL text with the
 * value, such as an `in` list, cannot be prepared.
 */
export function prepareQuery<Args extends readonly unknown[], Row>(
  db: Kysely<Database>,
  arity: Args["length"],
  build: (db: Kysely<Database>, ...slots: Slot[]) => Compilable<Row>,
): PreparedQuery<Args, Row> {
  const slots = Array.from({ length: arity }, (_, i) => `${slotMark}${i}`);
  const compiled = build(db, ...(slots as Slot[])).compile();
  // For each compiled parameter: the argument that fills it, or -1 for a constant of the query.
  const sources = compiled.parameters.map((value) =>
    typeof value === "string" && value.startsWith(slotMark) ? Number(value.slice(slotMark.length)) : -1,
  );
  for (let i = 0; i < arity; i++) {
    if (!sources.includes(i)) {
      throw new Error(`Prepared query never uses argument ${i}: ${compiled.sql}`);
    }
  }

  const withValues = (args: readonly unknown[]): CompiledQuery<Row> => ({
    ...compiled,
    parameters: sources.map((source, at) => (source === -1 ? compiled.parameters[at] : args[source])),
  });
  return {
    run: (runner, ...args) => runner.executeQuery(withValues(args)),
    rows: async (runner, ...args) => (await runner.executeQuery(withValues(args))).rows,
    first: async (runner, ...args) => (await runner.executeQuery(withValues(args))).rows[0],
  };
}

/**
 * A prepared query for whichever store the caller has, built on its first use with that store: for
 * statements defined once in a module and run against the store (or a transaction of it) passed in.
 */
export function preparedPerStore<Args extends readonly unknown[], Row>(
  arity: Args["length"],
  build: (db: Kysely<Database>, ...slots: Slot[]) => Compilable<Row>,
): (db: Kysely<Database>) => PreparedQuery<Args, Row> {
  const byStore = new WeakMap<Kysely<Database>, PreparedQuery<Args, Row>>();
  return (db) => {
    let prepared = byStore.get(db);
    if (!prepared) {
      prepared = prepareQuery<Args, Row>(db, arity, build);
      byStore.set(db, prepared);
    }
    return prepared;
  };
}
