// Each database's own SQL for the features' hot paths, one implementation per database behind one
// interface each: the features ask for the store's and never name a database themselves.
import type { Dialect } from "./database.js";
import { postgresSettlement } from "./postgres/settlement-sql.js";
import { postgresVideoQueue } from "./postgres/video-queue-sql.js";
import type { SettlementSql } from "./settlement-sql.js";
import { sqliteSettlement } from "./sqlite/settlement-sql.js";
import { sqliteVideoQueue } from "./sqlite/video-queue-sql.js";
import type { VideoQueueSql } from "./video-queue-sql.js";

export interface DatabaseSql {
  /** How a claim takes videos and reads their jobs' data keys (pipeline/claims.ts). */
  readonly videoQueue: VideoQueueSql;
  /** A settlement's locks, outcomes, job counts and closings (pipeline/settlement*.ts). */
  readonly settlement: SettlementSql;
}

const sqliteSql: DatabaseSql = {
  videoQueue: sqliteVideoQueue,
  settlement: sqliteSettlement,
};

const postgresSql: DatabaseSql = {
  videoQueue: postgresVideoQueue,
  settlement: postgresSettlement,
};

const byDatabase: Readonly<Record<Dialect, DatabaseSql>> = { sqlite: sqliteSql, postgres: postgresSql };

/** The SQL of the store's database (`store.dialect`), for the features' statements and steps. */
export function databaseSql(dialect: Dialect): DatabaseSql {
  return byDatabase[dialect];
}
