// Integers in a query string or a path are plain decimal digits, or the request is refused by name.
import type { ErrorObject } from "ajv";

/** The keyword of the finding below; validation-errors.ts words it for the client. */
export const decimalIntegerKeyword = "x-decimal-integer";

interface IntegerField {
  readonly name: string;
  readonly schema: Record<string, unknown>;
}

function isIntegerSchema(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}

/** The properties of an object schema that hold integers. */
export function integerFields(schema: unknown): readonly IntegerField[] {
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> } | null)?.properties;
  if (!properties) return [];
  return Object.entries(properties)
    .filter(([, property]) => isIntegerSchema(property))
    .map(([name, property]) => ({ name, schema: property }));
}

// Digits only: the validator's own reading of text (`+text`) would take "0x10", "1e1", " 5",
// "Infinity" and 400 digits (which is Infinity, and skips its range checks).
const decimalDigits = /^\d+$/;

function isDecimalInteger(text: string): boolean {
  return decimalDigits.test(text) && Number.isSafeInteger(Number(text));
}

/**
 * The first integer field whose text is not plain decimal digits of a safe size, as a validator
 * finding (so that it is reported as every other one is), or null. Values that are not text (a
 * repeated parameter makes a list) are left to the schema, which refuses them.
 */
export function looseIntegerFinding(data: unknown, fields: readonly IntegerField[]): ErrorObject | null {
  if (data === null || typeof data !== "object") return null;
  for (const { name, schema } of fields) {
    const value = (data as Record<string, unknown>)[name];
    if (typeof value !== "string" || isDecimalInteger(value)) continue;
    return {
      instancePath: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      schemaPath: `#/properties/${name}`,
      keyword: decimalIntegerKeyword,
      params: { minimum: schema.minimum, maximum: schema.maximum },
      message: "must be decimal digits",
      parentSchema: schema,
      data: value,
    };
  }
  return null;
}
