// PostgreSQL's words: JSON read by json_to_recordset, LIKE for prefixes, SKIP LOCKED for queues.
import { sql } from "kysely";
import type { SqlVocabulary } from "../sql-vocabulary.js";

export const postgresVocabulary: SqlVocabulary = {
  jsonRecords: (json, fields) => {
    // Field names and types are the statement's own words, never a value.
    const columns = Object.entries(fields).map(([name, type]) => `${name} ${type}`);
    return {
      from: sql`json_to_recordset(${json}::json) as r(${sql.raw(columns.join(", "))})`,
      fields: sql.raw(
        Object.keys(fields)
          .map((name) => `r.${name}`)
          .join(", "),
      ),
    };
  },
  skippingLockedRows: (pick) => pick.forUpdate().skipLocked() as typeof pick,
  // LIKE is exact about case here; of its wildcards ids can hold only `_`, escaped.
  prefixPattern: (prefix) => `${prefix.replace(/_/g, "\\_")}%`,
  startsWith: (column, pattern) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`,
  hasElementStartingWith: (column, pattern) =>
    sql<boolean>`${sql.ref(column)} like ('%"' || ${pattern}) escape '\\'`,
  // Schema-qualified when off the search path; the eraser reads the partition's own name from its end.
  rowPartition: sql<string>`tableoid::regclass::text`,
};
