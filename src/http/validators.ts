// Request validation: the same JSON schemas that document the API decide what it accepts.
import { Ajv, type Options, type ValidateFunction } from "ajv";
import type { FastifySchemaCompiler } from "fastify";
import { integerFields, looseIntegerFinding } from "./text-integers.js";
import { customMessageKeyword } from "./validation-errors.js";

const common: Options = {
  // Unknown fields are refused, never silently dropped, so a typo cannot pass unnoticed.
  removeAdditional: false,
  useDefaults: true,
  allErrors: false,
  // parentSchema on each error lets a schema's own `x-error-message` reach the client.
  verbose: true,
  strict: true,
};

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  ajv.addKeyword({ keyword: customMessageKeyword, schemaType: "string" });
  return ajv;
}

// A JSON body states its types: "5" is not 5. Query strings and path parameters are all text,
// so there numbers and booleans are read from their text.
const bodyAjv = makeAjv({ coerceTypes: false });
const textAjv = makeAjv({ coerceTypes: "array" });

/**
 * A query string's or a path's validator. The validator reads an integer from text as JavaScript
 * does (`0x10`, `1e1`, ` 5`, `Infinity`), so integer fields are first held to decimal digits.
 */
function textValidator(schema: object): ValidateFunction {
  const validate = textAjv.compile(schema);
  const fields = integerFields(schema);
  if (fields.length === 0) return validate;
  const checked = ((data: unknown, context?: object) => {
    const finding = looseIntegerFinding(data, fields);
    if (finding) {
      checked.errors = [finding];
      return false;
    }
    const valid = validate(data, context as never);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  // Fastify passes the parent (so a root value can be replaced) to functions that carry this.
  checked.schemaEnv = validate.schemaEnv;
  return checked;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  httpPart === "body" ? bodyAjv.compile(schema as object) : textValidator(schema as object);
