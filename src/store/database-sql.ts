// Each database's own SQL for the features' hot paths, one implementation per database behind one
// interface each: the features ask for the store's and never name a database themselves.
import type { Dialect } from "./store.js";
import type { HandoverSql } from "./handover-sql.js";
import { postgresHandover } from "./postgres/handover-sql.js";
import { postgresSettlement } from "./postgres/settlement-sql.js";
import { postgresVideoQueue } from "./postgres/video-queue-sql.js";
import { postgresVocabulary } from "./postgres/sql-vocabulary.js";
import type { SettlementSql } from "./settlement-sql.js";
import type { SqlVocabulary } from "./sql-vocabulary.js";
import { sqliteVocabulary } from "./sqlite/sql-vocabulary.js";
import { sqliteHandover } from "./sqlite/handover-sql.js";
import { sqliteSettlement } from "./sqlite/settlement-sql.js";
import { sqliteVideoQueue } from "./sqlite/video-queue-sql.js";
import type { VideoQueueSql } from "./video-queue-sql.js";

export interface DatabaseSql {
  /** The words the two say differently: JSON batches, prefix searches, queues' SKIP LOCKED. */
  readonly vocabulary: SqlVocabulary;
  /** How a claim takes videos and reads their jobs' data keys (pipeline/claims.ts). */
  readonly videoQueue: VideoQueueSql;
  /** A settlement's locks, outcomes, job counts and closings (pipeline/settlement*.ts). */
  readonly settlement: SettlementSql;
  /** A read's claim on a settled job's rows, and the handover that deletes them (jobs/handover.ts). */
  readonly handover: HandoverSql;
}

const sqliteSql: DatabaseSql = {
  vocabulary: sqliteVocabulary,
  videoQueue: sqliteVideoQueue,
  settlement: sqliteSettlement,
  handover: sqliteHandover,
};

const postgresSql: DatabaseSql = {
  vocabulary: postgresVocabulary,
  videoQueue: postgresVideoQueue,
  settlement: postgresSettlement,
  handover: postgresHandover,
};

const byDatabase: Readonly<Record<Dialect, DatabaseSql>> = { sqlite: sqliteSql, postgres: postgresSql };

/** The SQL of the store's database (`store.dialect`), for the features' statements and steps. */
export function databaseSql(dialect: Dialect): DatabaseSql {
  return byDatabase[dialect];
}
