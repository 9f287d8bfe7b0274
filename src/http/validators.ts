// Request validation: the same JSON schemas that document the API decide what it accepts.
import { Ajv, type Options } from "ajv";
import type { FastifySchemaCompiler } from "fastify";
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

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === "body" ? bodyAjv : textAjv;
  return ajv.compile(schema as object);
};
