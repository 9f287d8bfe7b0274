// NUL characters are refused in every input: PostgreSQL text cannot hold them, and no field needs them.
import { ApiError } from "./api-errors.js";
import { paramFromPointer } from "./validation-errors.js";

/** A `\u0000` escape in JSON text (an escaped backslash followed by `u0000` is not one). */
const escapedNul = /(?<!\\)(?:\\\\)*\\u0000/;

export function jsonTextMayHoldNul(text: string): boolean {
  return escapedNul.test(text);
}

/**
 * Whether a path's or a query's parameters may hold a NUL: false when none of their names and text
 * values does, which is every request but a hostile one. Those parameters are flat (a name to a
 * string, or to a list of strings for a repeated query parameter); anything else is left to `findNul`.
 * It runs on every request, so it builds nothing, where `findNul` builds the pointer it reports.
 */
export function parametersMayHoldNul(parameters: unknown): boolean {
  if (parameters === null || typeof parameters !== "object") return parameters !== undefined;
  for (const name in parameters) {
    if (name.includes("\u0000")) return true;
    const value = (parameters as Record<string, unknown>)[name];
    if (typeof value !== "string" || value.includes("\u0000")) return true;
  }
  return false;
}

/**
 * Where the first NUL sits in a parsed value, in a string or in a key, as a param (`schema.columns[2]`);
 * null when there is none. Iterative, so that a deeply nested body cannot overflow the stack.
 */
export function findNul(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop() as [unknown, string];
    if (typeof node === "string") {
      if (node.includes("\u0000")) return paramFromPointer(pointer);
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${pointer}/${i}`]);
    } else if (node !== null && typeof node === "object") {
      for (const [key, child] of Object.entries(node).reverse()) {
        const at = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if (key.includes("\u0000")) return paramFromPointer(at);
        stack.push([child, at]);
      }
    }
  }
  return null;
}

export function nulError(param: string, part: "body" | "query" | "path"): ApiError {
  const where = param === "" ? `The request ${part}` : `\`${param}\``;
  return new ApiError(
    "invalid_request",
    `${where} contains a NUL character (\\u0000), which is not accepted anywhere.`,
    param === "" ? undefined : param,
  );
}
