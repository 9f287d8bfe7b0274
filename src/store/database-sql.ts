// Each database's own SQL for the features' hot paths, one implementation per database behind one
// interface each: the features ask for the store's and never name a database themselves.
import type { Dialect } from "./database.js";
import { postgresVideoQueue } from "./postgres/video-queue-sql.js";
import { sqliteVideoQueue } from "./sqlite/video-queue-sql.js";
import type { VideoQueueSql } from "./video-queue-sql.js";

export interface DatabaseSql {
  /** How a claim takes videos and reads their jobs' data keys (pipeline/claims.ts). */
  readonly videoQueue: VideoQueueSql;
}

const sqliteSql: DatabaseSql = {
  videoQueue: sqliteVideoQueue,
};

const postgresSql: DatabaseSql = {
  videoQueue: postgresVideoQueue,
};

const byDatabase: Readonly<Record<Dialect, DatabaseSql>> = { sqlite: sqliteSql, postgres: postgresSql };

/** The SQL of the store's database (`store.dialect`), for the features' statements and steps. */
export function databaseSql(dialect: Dialect): DatabaseSql {
  return byDatabase[dialect];
}
