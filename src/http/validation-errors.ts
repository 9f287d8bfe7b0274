// Turns the validator's findings into one 400 that names the field to blame and says how to fix it.
import type { ErrorObject } from "ajv";
import { ApiError } from "./api-errors.js";
import { decimalIntegerKeyword } from "./text-integers.js";

/**
 * Schemas may carry `x-error-message`: a sentence for when a value fails that schema, where the
 * validator's own wording would be cryptic (patterns, unions of shapes).
 */
export const customMessageKeyword = "x-error-message";

type Part = "body" | "querystring" | "params" | "headers";

/** `/schema/columns/3` becomes `schema.columns[3]`; `/videos/0` becomes `videos[0]`. */
export function paramFromPointer(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

function joinParam(parent: string, child: string): string {
  return parent === "" ? child : `${parent}.${child}`;
}

function customMessage(error: ErrorObject): string | undefined {
  const schema = error.parentSchema as Record<string, unknown> | undefined;
  const message = schema?.[customMessageKeyword];
  return typeof message === "string" ? message : undefined;
}

const typeNames: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
};

function describeType(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => typeNames[String(t)] ?? String(t)).join(" or ");
}

function plural(count: unknown, one: string, many = `${one}s`): string {
  return `${count} ${Number(count) === 1 ? one : many}`;
}

/** " from 1 to 100", " of at least 0", or nothing, from a finding's bounds. */
function range(p: Record<string, unknown>): string {
  const min = typeof p.minimum === "number" ? p.minimum : undefined;
  const max = typeof p.maximum === "number" ? p.maximum : undefined;
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return "";
}

function describe(error: ErrorObject, part: Part): { param: string; message: string } {
  const at = paramFromPointer(error.instancePath);
  const p = error.params as Record<string, unknown>;
  const fieldWord = part === "querystring" ? "query parameter" : "field";
  switch (error.keyword) {
    case "required": {
      const param = joinParam(at, String(p.missingProperty));
      return { param, message: `The ${fieldWord} \`${param}\` is required.` };
    }
    case "additionalProperties": {
      if (p.additionalProperty === "") {
        return { param: at, message: `A ${fieldWord} has an empty name; remove it.` };
      }
      const param = joinParam(at, String(p.additionalProperty));
      return {
        param,
        message: `Unknown ${fieldWord} \`${param}\`; check its spelling against the API reference.`,
      };
    }
  }
  const name = at === "" ? (part === "body" ? "The request body" : `The ${part}`) : `\`${at}\``;
  const custom = customMessage(error);
  if (custom) return { param: at, message: `${name} ${custom}` };
  const messages: Record<string, () => string> = {
    type: () => `${name} must be ${describeType(p.type)}.`,
    maxLength: () => `${name} must be at most ${p.limit} characters long.`,
    minLength: () => `${name} must be at least ${p.limit} characters long.`,
    maximum: () => `${name} must be at most ${p.limit}.`,
    minimum: () => `${name} must be at least ${p.limit}.`,
    maxItems: () => `${name} must have at most ${plural(p.limit, "item")}.`,
    minItems: () => `${name} must have at least ${plural(p.limit, "item")}.`,
    uniqueItems: () =>
      `${name} has the same value twice (items ${Math.min(Number(p.i), Number(p.j))} and ${Math.max(Number(p.i), Number(p.j))}); each must be unique.`,
    maxProperties: () => `${name} must have at most ${plural(p.limit, "entry", "entries")}.`,
    minProperties: () => `${name} must have at least ${plural(p.limit, "entry", "entries")}.`,
    enum: () => `${name} must be one of: ${(p.allowedValues as unknown[]).map(String).join(", ")}.`,
    const: () => `${name} must be ${JSON.stringify(p.allowedValue)}.`,
    pattern: () => `${name} has a form that is not accepted.`,
    [decimalIntegerKeyword]: () => `${name} must be an integer${range(p)}, written in decimal digits only.`,
  };
  const message =
    messages[error.keyword]?.() ?? `${name} is not valid: ${error.message ?? "unexpected value"}.`;
  return { param: at, message };
}

/**
 * Picks the error that best explains the failure. The deepest one is the most specific, except that
 * where a value matched none of several shapes, the shapes' own complaints at that level (missing
 * this, unknown that) are replaced by the union's message, which names the shapes accepted.
 */
function pickError(errors: ErrorObject[]): ErrorObject | undefined {
  const unions = new Map(errors.filter((e) => e.keyword === "anyOf").map((e) => [e.instancePath, e]));
  let best: ErrorObject | undefined;
  let bestDepth = -1;
  for (const error of errors) {
    if (error.keyword === "anyOf") continue;
    const depth = error.instancePath.split("/").length;
    if (depth > bestDepth) {
      best = unions.get(error.instancePath) ?? error;
      bestDepth = depth;
    }
  }
  return best ?? errors[0];
}

export function validationError(errors: ErrorObject[], part: Part): ApiError {
  const chosen = pickError(errors);
  if (!chosen) return new ApiError("invalid_request", `The ${part} is not valid.`);
  const { param, message } = describe(chosen, part);
  return new ApiError("invalid_request", message, param === "" ? undefined : param);
}
