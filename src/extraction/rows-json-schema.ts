// The JSON schema the model must answer in (strict structured output):
// `{rows: [{row: {<column>: value, ...}, first_line, last_line}]}`. The span of transcript lines sits beside
// the row, not in it, so that a row's keys stay exactly the schema's columns whatever they are named.
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

/**
 * The JSON schema of an answer: each item a row with every column and nothing else (strict mode needs
 * both), and the first and last transcript lines it was drawn from.
 */
export function buildRowsJsonSchema(definition: SchemaDefinition): Record<string, unknown> {
  const specs = columnSpecs(definition);
  // Entries, not assignment: a column named `__proto__` must become a property, not a prototype.
  const properties = Object.fromEntries(specs.map((spec) => [spec.name, cellSchema(spec)]));
  return {
    type: "object",
    properties: {
      rows: {
        type: "array",
        items: {
          type: "object",
          properties: {
            row: {
              type: "object",
              properties,
              required: specs.map((spec) => spec.name),
              additionalProperties: false,
            },
            first_line: lineNumberSchema,
            last_line: lineNumberSchema,
          },
          required: ["row", "first_line", "last_line"],
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
