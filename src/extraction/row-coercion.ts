// Reduces what a model put in a row to exactly the schema's columns, each a string, number, boolean or null,
// and each of its column's type when the template gives one.
import { type ColumnSpec, type ColumnType, fitsColumnType } from "../domain/schema-definition.js";
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

/** A plain decimal number as people and models write one: no units, currency signs or thousands separators. */
const plainNumber = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** `value` as a value of `type` where nothing is lost or guessed in the conversion; otherwise null. */
export function convertCell(value: CellValue, type: ColumnType): CellValue {
  if (value === null || fitsColumnType(value, type)) return value;
  if (type === "string") return typeof value === "string" ? value : String(value);
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (type === "boolean") {
    const word = text.toLowerCase();
    return word === "true" ? true : word === "false" ? false : null;
  }
  if (!plainNumber.test(text)) return null;
  const number = Number(text);
  return fitsColumnType(number, type) ? number : null;
}

/** A cell fitted to its column: converted to the type, and null when outside the enum. */
export function fitCell(value: CellValue, spec: ColumnSpec): CellValue {
  if (spec.type === undefined) return value;
  const converted = convertCell(value, spec.type);
  if (converted === null || spec.enum === undefined) return converted;
  return spec.enum.includes(converted) ? converted : null;
}

export interface FittedRow {
  /** The row with every typed column's value fitted; null when nothing is left in any column. */
  readonly row: Row | null;
  /** How many values the model gave that fit neither their column's type nor its enum, so became null. */
  readonly nulledValues: number;
}

/** The row with every typed column's value fitted to its column; null when that leaves it empty. */
export function fitRow(row: Row, specs: readonly ColumnSpec[]): FittedRow {
  if (specs.every((spec) => spec.type === undefined)) return { row, nulledValues: 0 };
  let nulledValues = 0;
  const out: Row = Object.create(null);
  for (const spec of specs) {
    const value = row[spec.name] ?? null;
    const cell = fitCell(value, spec);
    if (value !== null && cell === null) nulledValues++;
    out[spec.name] = cell;
  }
  const empty = isEmptyRow(
    out,
    specs.map((spec) => spec.name),
  );
  return { row: empty ? null : out, nulledValues };
}
