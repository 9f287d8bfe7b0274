// The JSON schema the model must answer in (strict structured output): `{rows: [{<column>: value, ...}]}`.
import type OpenAI from "openai";
import { columnsOf, type SchemaDefinition } from "../domain/schema-definition.js";

/** The name the structured output carries; the API wants `[a-zA-Z0-9_-]{1,64}`. */
export const rowsSchemaName = "extracted_rows";

/** Every cell may be any JSON scalar; the model picks, and null says the transcript does not tell. */
const cellTypes = ["string", "number", "boolean", "null"];

export interface ColumnSpec {
  readonly name: string;
  /** What to put in the column, from a template; undefined for a plain list of columns. */
  readonly description: string | undefined;
}

/** The schema's columns in order, with their template descriptions. */
export function columnSpecs(definition: SchemaDefinition): ColumnSpec[] {
  const template = "template" in definition ? definition.template : undefined;
  return columnsOf(definition).map((name) => {
    const description = template && Object.hasOwn(template, name) ? template[name]?.trim() : undefined;
    return { name, description: description === "" ? undefined : description };
  });
}

/** The JSON schema of an answer: every column required, nothing else allowed (strict mode needs both). */
export function buildRowsJsonSchema(definition: SchemaDefinition): Record<string, unknown> {
  const specs = columnSpecs(definition);
  // Entries, not assignment: a column named `__proto__` must become a property, not a prototype.
  const properties = Object.fromEntries(
    specs.map(({ name, description }) => [
      name,
      description === undefined ? { type: cellTypes } : { type: cellTypes, description },
    ]),
  );
  return {
    type: "object",
    properties: {
      rows: {
        type: "array",
        description: "One object per distinct item the transcript mentions; empty when there is none.",
        items: {
          type: "object",
          properties,
          required: specs.map((spec) => spec.name),
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
