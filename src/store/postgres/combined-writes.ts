// PostgreSQL: a transaction's writes that answer nothing, sent as one statement.
import { CompiledQuery } from "kysely";
import type { QueryRunner } from "../prepared-query.js";

/**
 * Runs the writes (compiled statements) as one statement. Inside a transaction, each statement is a round trip made while the
 * transaction holds its locks, and on a busy machine each round trip waits to be scheduled twice
 * (measured: about 1 ms each at a load average of 3 on two cores). So they go as one statement: each a
 * data-modifying WITH query (`with w0 as (...), w1 as (...) select 1`), which PostgreSQL runs to
 * completion whether or not anything reads it. They must write different rows (the sub-statements see
 * one snapshot, not each other's changes); a foreign key is checked at the end of the whole statement.
 */
export async function combineWrites(
  runner: QueryRunner,
  writes: readonly CompiledQuery<unknown>[],
): Promise<void> {
  if (writes.length === 0) return;
  const parts: string[] = [];
  const parameters: unknown[] = [];
  writes.forEach((compiled, i) => {
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
