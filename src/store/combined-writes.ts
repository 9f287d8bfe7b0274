// A transaction's writes that answer nothing: one statement each on SQLite, all of them one statement on PostgreSQL
// (unless VIDROWS_COMBINED_WRITES=0: see `Store.combinesWrites`).
import { CompiledQuery } from "kysely";
import type { Store } from "./database.js";
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
 * Runs the writes. Inside a transaction on PostgreSQL, each statement is a round trip made while the
 * transaction holds its locks, and on a busy machine each round trip waits to be scheduled twice
 * (measured: about 1 ms each at a load average of 3 on two cores). So there they go as one statement:
 * each a data-modifying WITH query (`with w0 as (...), w1 as (...) select 1`), which PostgreSQL runs to
 * completion whether or not anything reads it. They must write different rows (the sub-statements see
 * one snapshot, not each other's changes); a foreign key is checked at the end of the whole statement.
 * On SQLite, in the same process, a statement costs no round trip: each runs prepared, as it is.
 */
export async function runWrites(store: Store, runner: QueryRunner, writes: readonly Write[]): Promise<void> {
  if (!store.combinesWrites || writes.length === 1) {
    for (const each of writes) await each.run(runner);
    return;
  }
  if (writes.length === 0) return;
  const parts: string[] = [];
  const parameters: unknown[] = [];
  writes.forEach((each, i) => {
    const compiled = each.compile();
    // Kysely writes PostgreSQL's placeholders as $1, $2, ...; numbered on after the statements before.
    // Our statements put no `$` in a literal, so every `$` is a placeholder (anything else is refused).
    if (/\$(?!\d)/.test(compiled.sql))
      throw new Error(`A write to combine holds a "$" of its own: ${compiled.sql}`);
    const offset = parameters.length;
    parts.push(`w${i} as (${compiled.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`);
    parameters.push(...compiled.parameters);
  });
  await runner.executeQuery(CompiledQuery.raw(`with ${parts.join(", ")} select 1`, parameters));
}
