// The JSON schema the model must answer in (strict structured output):
// `{rows: [{<column>: value, ..., first_line, last_line}]}`. The span of transcript lines sits among the
// columns, not in a wrapper around them: a wrapper object cost 19 prompt tokens a chunk (its schema) and
// 3 completion tokens a row. A column named like a line key renames the line keys (`lineKeys`), so that a
// row's columns stay exactly the schema's whatever they are named.
import type OpenAI from "openai";
import { type ColumnSpec, columnSpecs, type SchemaDefinition } from "../domain/schema-definition.js";

/** The name the structured output carries; the API wants `[a-zA-Z0-9_-]{1,64}`. */
export const rowsSchemaName = "extracted_rows";

/** An untyped cell may be any JSON scalar; the model picks, and null says the transcript does not tell. */
const cellTypes = ["string", "number", "boolean", "null"];

/**
 * A column's JSON schema: its type (with null unless the template says otherwise) and enum. Its description
 * is said once, in the instructions (`extraction-prompt.ts`), which every server reads, strict or not:
 * saying it here too would send it twice with every chunk.
 */
export function cellSchema(spec: ColumnSpec): Record<string, unknown> {
  const schema: Record<string, unknown> = {
    type: spec.type === undefined ? cellTypes : spec.nullable ? [spec.type, "null"] : spec.type,
  };
  // In JSON Schema an enum restricts the type's values too, so null must be among them to stay allowed.
  if (spec.enum !== undefined) schema.enum = spec.nullable ? [...spec.enum, null] : [...spec.enum];
  return schema;
}

/** A line number of the chunk's numbered transcript; the instructions say what it is. */
const lineNumberSchema = { type: "integer" };

/** The keys of an answer item that name its first and last transcript lines, beside its columns. */
export interface LineKeys {
  readonly first: string;
  readonly last: string;
}

/**
 * `first_line` and `last_line`, each with one more leading underscore as long as either is a column's name.
 * Each round that clashes needs a column of its own, so there are at most as many rounds as columns.
 */
export function lineKeys(columns: readonly string[]): LineKeys {
  const names = new Set(columns);
  let prefix = "";
  for (let round = 0; round <= names.size; round++) {
    if (!names.has(`${prefix}first_line`) && !names.has(`${prefix}last_line`)) break;
    prefix += "_";
  }
  return { first: `${prefix}first_line`, last: `${prefix}last_line` };
}

/**
 * The JSON schema of an answer: each item a row with every column, the first and last transcript lines
 * it was drawn from, and nothing else (strict mode needs every property required and no others).
 */
export function buildRowsJsonSchema(definition: SchemaDefinition): Record<string, unknown> {
  const specs = columnSpecs(definition);
  const names = specs.map((spec) => spec.name);
  const lines = lineKeys(names);
  // Entries, not assignment: a column named `__proto__` must become a property, not a prototype.
  const properties = Object.fromEntries([
    ...specs.map((spec) => [spec.name, cellSchema(spec)]),
    [lines.first, lineNumberSchema],
    [lines.last, lineNumberSchema],
  ]);
  return {
    type: "object",
    properties: {
      rows: {
        type: "array",
        items: {
          type: "object",
          properties,
          required: [...names, lines.first, lines.last],
          additionalProperties: false,
        },
      },
    },
    required: ["rows"],
    additionalProperties: false,
  };
}

/** The `response_format` of a chat-completions request asking for rows under `definition`. */
export function buildRowsResponseFormat(definition: SchemaDefinition): OpenAI.ResponseFormatJSONSchema {
  return {
    type: "json_schema",
    json_schema: { name: rowsSchemaName, strict: true, schema: buildRowsJsonSchema(definition) },
  };
}
