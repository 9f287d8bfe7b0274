// The shape of a job's schema: a list of columns, or a template of columns with descriptions and, optionally, types.
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

export const columnTypes = ["string", "number", "integer", "boolean"] as const;
export type ColumnType = (typeof columnTypes)[number];

const ColumnDescription = Type.String({ maxLength: 500, description: "What to put in this column." });

const EnumValue = Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]);

const TypedColumn = Type.Object(
  {
    description: ColumnDescription,
    type: Type.Union(
      [Type.Literal("string"), Type.Literal("number"), Type.Literal("integer"), Type.Literal("boolean")],
      {
        description: "The type of the column's values.",
        "x-error-message": `must be one of: ${columnTypes.join(", ")}.`,
      },
    ),
    enum: Type.Optional(
      Type.Array(EnumValue, {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description: "The only values the column may take, each of the column's type.",
      }),
    ),
    nullable: Type.Optional(
      Type.Boolean({
        description:
          "Whether the column may be null when the transcript does not give it (default true); false makes the model always answer a value.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "A column with a type, and optionally the values it may take.",
  },
);

const TemplateColumn = Type.Union([ColumnDescription, TypedColumn], {
  "x-error-message":
    'must be a description, or {"description": "...", "type": "string" | "number" | "integer" | "boolean", "enum"?: [...], "nullable"?: true | false}.',
});

export type TemplateColumn = Static<typeof TemplateColumn>;

const TemplateSchema = Type.Object(
  {
    template: Type.Unsafe<Record<string, TemplateColumn>>({
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
      additionalProperties: TemplateColumn,
      description:
        "Column names mapped to what to put in each: a description (up to 500 characters), or a typed column.",
    }),
  },
  { additionalProperties: false },
);

export const SchemaDefinition = Type.Union([ColumnsSchema, TemplateSchema], {
  description:
    'Either `{"columns": ["name", ...]}` or `{"template": {"name": "what to put in this column", ...}}`: 1 to 50 columns. A template column may also be typed: `{"description": "...", "type": "number", "enum": [...], "nullable": false}`.',
  "x-error-message":
    'must be either {"columns": ["name", ...]} or {"template": {"name": "description", ...}}, with 1 to 50 columns.',
});

export type SchemaDefinition = Static<typeof SchemaDefinition>;

/** One column as the extraction sees it: its name, and what a template says of it. */
export interface ColumnSpec {
  readonly name: string;
  /** What to put in the column, from a template; undefined for a plain list of columns. */
  readonly description: string | undefined;
  /** Undefined: any JSON scalar, as for every column of a plain list or a description-only template. */
  readonly type: ColumnType | undefined;
  readonly enum: readonly (string | number | boolean)[] | undefined;
  /** False only when the template says so: by default the transcript may leave a value out. */
  readonly nullable: boolean;
}

/** The column names of a schema, in order. */
export function columnsOf(definition: SchemaDefinition): string[] {
  return "columns" in definition ? [...definition.columns] : Object.keys(definition.template);
}

function specOf(name: string, column: TemplateColumn | undefined): ColumnSpec {
  const text = (typeof column === "string" ? column : column?.description)?.trim();
  const description = text === "" ? undefined : text;
  if (column === undefined || typeof column === "string") {
    return { name, description, type: undefined, enum: undefined, nullable: true };
  }
  return { name, description, type: column.type, enum: column.enum, nullable: column.nullable ?? true };
}

/** The schema's columns in order, with what its template says of each. */
export function columnSpecs(definition: SchemaDefinition): ColumnSpec[] {
  const template = "template" in definition ? definition.template : undefined;
  return columnsOf(definition).map((name) =>
    specOf(name, template && Object.hasOwn(template, name) ? template[name] : undefined),
  );
}

/** Whether `value` is a value of `type`; integers are numbers without a fraction. */
export function fitsColumnType(value: unknown, type: ColumnType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
  }
}

/** What the shape alone cannot say of a template: a column's `enum` values must be of its `type`. */
export interface ColumnProblem {
  /** From the schema's root, e.g. `template.price.enum[1]`. */
  readonly path: string;
  readonly message: string;
}

export function findColumnProblem(definition: SchemaDefinition): ColumnProblem | undefined {
  if (!("template" in definition)) return undefined;
  for (const [name, column] of Object.entries(definition.template)) {
    if (typeof column === "string" || column.enum === undefined) continue;
    const index = column.enum.findIndex((value) => !fitsColumnType(value, column.type));
    if (index >= 0) {
      return {
        path: `template.${name}.enum[${index}]`,
        message: `is ${JSON.stringify(column.enum[index])}, which is not of the column ${JSON.stringify(name)}'s type ${column.type}; every enum value must be.`,
      };
    }
  }
  return undefined;
}

/** `<name>-v<version>`, the label a saved schema's version carries on jobs. */
export function schemaLabel(name: string, version: number): string {
  return `${name}-v${version}`;
}
