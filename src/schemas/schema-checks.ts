// The checks on a submitted schema that its JSON shape cannot express, as 400s naming the column.
import { findColumnProblem, type SchemaDefinition } from "../domain/schema-definition.js";
import { ApiError } from "../http/api-errors.js";

/** Throws `invalid_request` when a typed column's `enum` holds a value not of its `type`. */
export function checkSchemaColumns(definition: SchemaDefinition | undefined, field = "schema"): void {
  if (definition === undefined) return;
  const problem = findColumnProblem(definition);
  if (problem === undefined) return;
  const param = `${field}.${problem.path}`;
  throw new ApiError("invalid_request", `\`${param}\` ${problem.message}`, param);
}
