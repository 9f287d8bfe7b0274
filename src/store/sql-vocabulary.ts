// The few words of SQL the two databases say differently, for statements otherwise written once.
import type { RawBuilder, SelectQueryBuilder } from "kysely";

/** The SQL type of a field of a JSON record (what PostgreSQL casts it to; SQLite reads JSON's own). */
export type JsonFieldType = "text" | "integer" | "bigint";

/**
 * A JSON array of objects, sent as one parameter, read as a table: `from` goes after FROM, and
 * `fields` in the SELECT list is their fields, in the order they were declared.
 */
export interface JsonRecords {
  readonly from: RawBuilder<unknown>;
  readonly fields: RawBuilder<unknown>;
}

export interface SqlVocabulary {
  /**
   * `json` (a value: a JSON array of objects with these fields) as a table, so that a batch of rows is
   * one statement and one round trip, however many rows it has.
   */
  jsonRecords(json: unknown, fields: Readonly<Record<string, JsonFieldType>>): JsonRecords;
  /**
   * A pick of rows to take for this transaction, skipping those another transaction has locked
   * (where rows are locked one by one), for queues that several processes take from at once.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query of any table
  skippingLockedRows<Query extends SelectQueryBuilder<any, any, any>>(pick: Query): Query;
  /** The pattern `startsWith` matches every value beginning with `prefix` (id characters only) by. */
  prefixPattern(prefix: string): string;
  /** Whether `column` begins with the prefix of `pattern`: exact about case, and able to use an index. */
  startsWith(column: string, pattern: string): RawBuilder<boolean>;
  /**
   * Whether the JSON array of strings in `column` has an element beginning with the prefix of
   * `pattern`: each element starts right after a double quote, which ids never hold.
   */
  hasElementStartingWith(column: string, pattern: string): RawBuilder<boolean>;
  /**
   * The name of the partition a row (of a DELETE's RETURNING) is stored in, which the storage eraser
   * rewrites; null where tables are not partitioned.
   */
  readonly rowPartition: RawBuilder<string | null>;
}
