// Reduces what a model put in a row to exactly the schema's columns, each a string, number, boolean or null.
import type { CellValue, Row } from "./extractor.js";

/** A JSON scalar as it is; a structure as its JSON text; anything that is no value at all as null. */
export function coerceCell(value: unknown): CellValue {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "object": {
      if (value === null) return null;
      // A model that nests a list or an object in a cell still said something; keep it, readably.
      // An empty one says nothing.
      if (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0) return null;
      try {
        return JSON.stringify(value);
      } catch {
        return null;
      }
    }
    default:
      return null;
  }
}

/**
 * The row with the schema's columns in the schema's order: missing ones null, extra ones dropped.
 * The row has no prototype and values are read as own properties only, so a column named `__proto__`
 * or `constructor` is a column like any other and cannot reach or alter `Object.prototype`.
 */
export function coerceRow(raw: Readonly<Record<string, unknown>>, columns: readonly string[]): Row {
  const row: Row = Object.create(null);
  for (const column of columns) row[column] = Object.hasOwn(raw, column) ? coerceCell(raw[column]) : null;
  return row;
}

export function isEmptyRow(row: Row, columns: readonly string[]): boolean {
  return columns.every((column) => row[column] === null);
}

/** Every raw row coerced; rows with nothing in any column are dropped. */
export function coerceRows(
  raws: readonly Readonly<Record<string, unknown>>[],
  columns: readonly string[],
): Row[] {
  return raws.map((raw) => coerceRow(raw, columns)).filter((row) => !isEmptyRow(row, columns));
}
