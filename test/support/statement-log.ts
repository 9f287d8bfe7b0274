// Which statements code ran against a store, as the SQL the database received: for tests of query plans.
import {
  CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import type { Store } from "../../src/store/database.js";

/** The request's key check, on both databases: the statement that finds a key by its hash. */
export const keyCheckStatement = /^select .* from "api_keys" .*where "api_keys"\."key_hash" = (\?|\$\d+)/;

/** Records every statement the server runs to completion, as the SQL the database received. */
export class StatementLog implements KyselyPlugin {
  private readonly pending = new WeakMap<QueryId, RootOperationNode>();
  private readonly finished: { node: RootOperationNode; queryId: QueryId }[] = [];
  private store: Store | undefined;

  watch<S extends Store>(store: S): S {
    const watched: S = { ...store, db: store.db.withPlugin(this) };
    this.store = watched;
    return watched;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    this.pending.set(queryId, node);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.pending.get(queryId);
    if (node) this.finished.push({ node, queryId });
    return result;
  }

  clear(): void {
    this.finished.length = 0;
  }

  /**
   * The statements since the last clear, leaving out the server's background work, which runs on its
   * own clock and may land inside any request: the clean-up of old rate-limit windows, and the webhook
   * dispatcher's polls of its deliveries.
   */
  statements(): CompiledQuery[] {
    const executor = this.store?.db.getExecutor();
    if (!executor) throw new Error("StatementLog is not watching a store.");
    return this.finished
      .map(({ node, queryId }) => executor.compileQuery(node, queryId))
      .filter((q) => !/^delete from "rate_limit_windows"|"webhook_deliveries"/.test(q.sql));
  }
}

/**
 * The database's plan for `query`, a line per step: SQLite's `explain query plan`, PostgreSQL's `explain`.
 * A prepared statement (store/prepared-query.ts) is logged with its slots where its values go, since the
 * log sees the statement as built: `slotValues` gives a slot, by name, a value to plan with (needed
 * where the marker, a string, is no value of the slot's type).
 */
export async function explainPlan(
  store: Store,
  query: CompiledQuery,
  slotValues: Record<string, unknown> = {},
): Promise<string[]> {
  const sqlite = store.dialect === "sqlite";
  const parameters = query.parameters.map((value) => {
    const slot = typeof value === "string" ? /^vidrows-slot-[0-9a-f]+:(\w+)$/.exec(value)?.[1] : undefined;
    // A slot given no value plans with its marker, which does for a text value.
    if (slot === undefined || !(slot in slotValues)) return value;
    return slotValues[slot];
  });
  const result = await store.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`${sqlite ? "explain query plan" : "explain"} ${query.sql}`, parameters),
  );
  return result.rows.map((row) => String(sqlite ? row.detail : row["QUERY PLAN"]));
}
