// The shape of a job's schema: a list of columns, or a template of columns with descriptions.
import { type Static, Type } from "typebox";

const noControlCharacters = "^[^\\u0000-\\u001f\\u007f]+$";

const ColumnName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: noControlCharacters,
  "x-error-message": "must be a column name of 1 to 64 characters, without control characters.",
});

const ColumnsSchema = Type.Object(
  { columns: Type.Array(ColumnName, { minItems: 1, maxItems: 50, uniqueItems: true }) },
  { additionalProperties: false },
);

const TemplateSchema = Type.Object(
  {
    template: Type.Unsafe<Record<string, string>>({
      type: "object",
      minProperties: 1,
      maxProperties: 50,
      propertyNames: {
        minLength: 1,
        maxLength: 64,
        pattern: noControlCharacters,
        "x-error-message":
          "has a column name that is empty, longer than 64 characters or has control characters.",
      },
      additionalProperties: Type.String({ maxLength: 500, description: "What to put in this column." }),
      description: "Column names mapped to what to put in each (up to 500 characters).",
    }),
  },
  { additionalProperties: false },
);

export const SchemaDefinition = Type.Union([ColumnsSchema, TemplateSchema], {
  description:
    'Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns.',
  "x-error-message":
    'must be either {"columns": ["name", ...]} or {"template": {"name": "description", ...}}, with 1 to 50 columns.',
});

export type SchemaDefinition = Static<typeof SchemaDefinition>;

/** The column names of a schema, in order. */
export function columnsOf(definition: SchemaDefinition): string[] {
  return "columns" in definition ? [...definition.columns] : Object.keys(definition.template);
}

/** `<name>-v<version>`, the label a saved schema's version carries on jobs. */
export function schemaLabel(name: string, version: number): string {
  return `${name}-v${version}`;
}
