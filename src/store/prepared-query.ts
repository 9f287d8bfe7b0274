// Queries built and compiled once, then run many times with new values: for the statements every request runs.
import { randomBytes } from "node:crypto";
import {
  type Compilable,
  type CompiledQuery,
  type Kysely,
  PostgresAdapter,
  type QueryResult,
  type RawBuilder,
} from "kysely";
import { nameStatement } from "./postgres/named-statements.js";
import type { Database } from "./tables.js";

/** The query runner of a store or of an open transaction: both run a compiled query the same way. */
export type QueryRunner = Pick<Kysely<Database>, "executeQuery">;

/**
 * Stand-ins for the parameters while the query is built, one per name. Each is typed `never` so that it
 * fits any value position of Kysely's builder; at run time it is a string no real value can equal.
 */
export type Slots<Params extends object> = { readonly [Name in keyof Params]-?: never };

export interface PreparedQuery<Params extends object, Row> {
  /** Runs the query with these values, on the store or inside a transaction. */
  run(runner: QueryRunner, params: Params): Promise<QueryResult<Row>>;
  /** The rows the query returns. */
  rows(runner: QueryRunner, params: Params): Promise<Row[]>;
  /** The first row, or undefined. */
  first(runner: QueryRunner, params: Params): Promise<Row | undefined>;
  /** The statement with these values, compiled: to send as part of another (store/combined-writes.ts), or
   * on a runner of its own (see `Store.readNow`). */
  compile(params: Params): CompiledQuery<Row>;
}

// No constant a query is written with can equal a slot. (No NUL in it: PostgreSQL refuses those in text.)
const slotMark = `vidrows-slot-${randomBytes(6).toString("hex")}:`;

export interface PrepareOptions {
  /**
   * PostgreSQL: send it as a named statement (default true). After five runs PostgreSQL may plan a
   * named statement once for any values (a generic plan); a query whose good plan depends on a value,
   * such as a LIKE prefix (only a known pattern can use an index), says false and is planned each run.
   */
  readonly named?: boolean;
}

/**
 * Kysely builds and compiles a query from its builder on every call, which costs more than SQLite
 * takes to run a point lookup. A prepared query is built once per dialect, with slots where the
 * parameters go; each run only puts the values into the compiled parameter list. The database keeps
 * the statement prepared too, since its SQL text is the same on every run: SQLite in the store's cache
 * of statements, PostgreSQL as a named statement on each connection (see postgres/named-statements.ts), unless
 * `options.named` is false.
 *
 * Parameters are named (`{ jobId, workspaceId }`), so that two of the same type cannot be swapped
 * unnoticed; an array works too, for a statement whose values are a flat list. `build` must use each
 * slot as a plain value (a `where` operand, a `set` or `values` field, a `limit`): anything that would
 * change the SQL text with the value, such as an `in` list, cannot be prepared.
 */
export function prepareQuery<Params extends object, Row>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, slots: Slots<Params>) => Compilable<Row>,
  options: PrepareOptions = {},
): PreparedQuery<Params, Row> {
  const used = new Set<string>();
  const slots = new Proxy({} as Slots<Params>, {
    get(_target, name) {
      if (typeof name !== "string") return undefined;
      used.add(name);
      return `${slotMark}${name}`;
    },
  });
  const compiled = build(db, slots).compile();
  // For each compiled parameter: the name of the value that fills it, or null for a constant of the query.
  const sources = compiled.parameters.map((value) =>
    typeof value === "string" && value.startsWith(slotMark) ? value.slice(slotMark.length) : null,
  );
  for (const name of used) {
    if (!sources.includes(name)) {
      throw new Error(`Prepared query reads parameter "${name}" but not as a value: ${compiled.sql}`);
    }
  }
  if (options.named !== false && db.getExecutor().adapter instanceof PostgresAdapter)
    nameStatement(compiled.sql);

  const withValues = (params: Params): CompiledQuery<Row> => ({
    ...compiled,
    parameters: sources.map((name, at) => {
      if (name === null) return compiled.parameters[at];
      const value = (params as Record<string, unknown>)[name];
      // A missing value would bind as NULL on one dialect and fail on the other: say which one it is.
      if (value === undefined)
        throw new Error(`Prepared query run without parameter "${name}": ${compiled.sql}`);
      return value;
    }),
  });
  return {
    run: (runner, params) => runner.executeQuery(withValues(params)),
    rows: async (runner, params) => (await runner.executeQuery(withValues(params))).rows,
    first: async (runner, params) => (await runner.executeQuery(withValues(params))).rows[0],
    compile: withValues,
  };
}

/**
 * A prepared query for whichever store the caller has, built on its first use with that store: for
 * statements defined once in a module and run against the store (or a transaction of it) passed in.
 */
export function preparedPerStore<Params extends object, Row>(
  build: (db: Kysely<Database>, slots: Slots<Params>) => Compilable<Row>,
  options: PrepareOptions = {},
): (db: Kysely<Database>) => PreparedQuery<Params, Row> {
  const byStore = new WeakMap<Kysely<Database>, PreparedQuery<Params, Row>>();
  return (db) => {
    let prepared = byStore.get(db);
    if (!prepared) {
      prepared = prepareQuery<Params, Row>(db, build, options);
      byStore.set(db, prepared);
    }
    return prepared;
  };
}

/**
 * A prepared statement written as a `sql` template, for what the builder cannot say (a batch's values
 * as one JSON parameter, read as a table: `json_populate_recordset` on PostgreSQL, `json_each` on
 * SQLite), in the store's dialect. The slots follow the same rules as `prepareQuery`'s; read them as
 * `slots.name` where the SQL uses them, since a parameter only one dialect's SQL reads counts as unused
 * in the other's once destructured.
 */
export function preparedSqlPerStore<Params extends object, Row>(
  build: (dialect: "sqlite" | "postgres", slots: Slots<Params>) => RawBuilder<Row>,
): (db: Kysely<Database>) => PreparedQuery<Params, Row> {
  return preparedPerStore<Params, Row>((db, slots) => {
    const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
    const statement = build(dialect, slots);
    return { compile: () => statement.compile(db) };
  });
}
