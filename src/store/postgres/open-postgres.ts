// PostgreSQL: a pool of connections, bigints read as numbers, prepared queries sent as named statements.
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Store } from "../store.js";
import type { Database } from "../tables.js";
import { NamingClient } from "./named-statements.js";

// PostgreSQL's bigint (int8) and numeric arrive as strings by default; every bigint here is a time in
// milliseconds or a credit count, far inside the range a JavaScript number holds exactly.
const int8Oid = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === int8Oid && format !== "binary") return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * The store on PostgreSQL: what every database offers, nothing more. Its read stamps are per workspace,
 * read with each request's key (access/postgres-access-check.ts).
 */
export interface PostgresStore extends Store {
  readonly dialect: "postgres";
}

/** The mechanisms of this folder, each on unless switched off (docs/performance.md). */
export interface PostgresMechanisms {
  readonly namedStatements: boolean;
  readonly combinedWrites: boolean;
}

export function openPostgres(
  url: string,
  maxConnections: number,
  remembersAnswers: boolean,
  mechanisms: PostgresMechanisms,
): PostgresStore {
  // NamingClient sends prepared queries as named statements (see named-statements.ts); pg's own
  // client sends every statement unnamed, as Kysely asks.
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    types: pgTypes,
    Client: mechanisms.namedStatements ? NamingClient : pg.Client,
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that would
  // crash the process. The next query reports the outage to its caller instead.
  pool.on("error", () => {});
  // The same for a client in use but between two queries (a transaction's, say) when the server shuts
  // down: measured, a worker died of that unhandled 'error' when PostgreSQL stopped under load. The
  // client's next query fails instead (503), and the pool discards it when it comes back.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    remembersAnswers,
    combinesWrites: mechanisms.combinedWrites,
    close: () => db.destroy(),
  };
}
