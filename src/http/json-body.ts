// Reading a JSON request body, with answers that say what is wrong with it.
import secureJson from "secure-json-parse";
import { ApiError } from "./api-errors.js";
import { findNul, jsonTextMayHoldNul, nulError } from "./nul-characters.js";

const forbiddenKey = /forbidden (prototype|constructor) property/;

/**
 * The parsed body, or undefined for an empty one (some clients send `content-type: application/json`
 * on every request, bodies or not). Keys that could poison object prototypes, escaped or not, are
 * refused outright.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
  } catch (error) {
    const message = (error as Error).message;
    if (forbiddenKey.test(message)) {
      throw new ApiError(
        "invalid_request",
        "The request body must not contain `__proto__` or `constructor.prototype` keys.",
      );
    }
    throw new ApiError("invalid_request", `The request body is not valid JSON: ${message}.`);
  }
  // The walk costs something on a large body; the text tells first whether it can find anything.
  if (jsonTextMayHoldNul(text)) {
    const param = findNul(parsed);
    if (param !== null) throw nulError(param, "body");
  }
  return parsed;
}
