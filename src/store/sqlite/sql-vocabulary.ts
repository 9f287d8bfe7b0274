// SQLite's words: JSON read by json_each, GLOB for prefixes; one writer, so nothing to skip.
import { sql } from "kysely";
import type { SqlVocabulary } from "../sql-vocabulary.js";

export const sqliteVocabulary: SqlVocabulary = {
  jsonRecords: (json, fields) => ({
    from: sql`json_each(${json})`,
    // Field names are the statement's own words, never a value.
    fields: sql.raw(
      Object.keys(fields)
        .map((name) => `value ->> '${name}'`)
        .join(", "),
    ),
  }),
  // The claim's write lock is the whole database's: no other transaction holds a row it could pick.
  skippingLockedRows: (pick) => pick,
  // SQLite's LIKE ignores case; GLOB does not, and ids hold none of its wildcards.
  prefixPattern: (prefix) => `${prefix}*`,
  startsWith: (column, pattern) => sql<boolean>`${sql.ref(column)} glob ${pattern}`,
  hasElementStartingWith: (column, pattern) => sql<boolean>`${sql.ref(column)} glob ('*"' || ${pattern})`,
  // Deleted content is zeroed in place; the eraser cuts back the write-ahead log, whatever the table.
  rowPartition: sql<null>`null`,
};
