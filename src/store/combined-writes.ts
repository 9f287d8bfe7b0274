// A transaction's writes that answer nothing: one statement each on SQLite, all of them one statement on PostgreSQL
// (unless VIDROWS_COMBINED_WRITES=0: see `Store.combinesWrites`).
import type { CompiledQuery } from "kysely";
import type { Store } from "./database.js";
import { combineWrites } from "./postgres/combined-writes.js";
import type { PreparedQuery, QueryRunner } from "./prepared-query.js";

/** One write: a prepared statement and its values. */
export interface Write {
  run(runner: QueryRunner): Promise<unknown>;
  compile(): CompiledQuery<unknown>;
}

export function write<Params extends object>(query: PreparedQuery<Params, unknown>, params: Params): Write {
  return { run: (runner) => query.run(runner, params), compile: () => query.compile(params) };
}

/**
 * Runs the writes. On SQLite, in the same process, a statement costs no round trip: each runs
 * prepared, as it is. On PostgreSQL, inside a transaction, they go as one statement
 * (postgres/combined-writes.ts says why and what they must respect).
 */
export async function runWrites(store: Store, runner: QueryRunner, writes: readonly Write[]): Promise<void> {
  if (!store.combinesWrites || writes.length === 1) {
    for (const each of writes) await each.run(runner);
    return;
  }
  await combineWrites(
    runner,
    writes.map((each) => each.compile()),
  );
}
