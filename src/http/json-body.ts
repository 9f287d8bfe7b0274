// Reading a JSON request body, with answers that say what is wrong with it.
import { isUtf8 } from "node:buffer";
import secureJson from "secure-json-parse";
import { ApiError } from "./api-errors.js";
import { findDuplicateKey } from "./duplicate-keys.js";
import { findNul, jsonTextMayHoldNul, nulError } from "./nul-characters.js";

const forbiddenKey = /forbidden (prototype|constructor) property/;

/**
 * The text of a body that must be UTF-8 (JSON is). Decoding would otherwise turn each bad byte into
 * U+FFFD, and store that instead of the text the client meant.
 */
export function jsonBodyText(body: Buffer): string {
  if (!isUtf8(body)) {
    throw new ApiError(
      "invalid_request",
      "The request body is not valid UTF-8; send JSON text encoded as UTF-8.",
    );
  }
  return body.toString("utf8");
}

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
  // Without a comma no object can hold two keys, let alone the same one twice.
  if (text.includes(",")) {
    const twice = findDuplicateKey(text);
    if (twice !== null) {
      const field = twice === "" ? "a field with an empty name" : `the field \`${twice}\``;
      throw new ApiError(
        "invalid_request",
        `The request body gives ${field} twice; send each field once.`,
        twice === "" ? undefined : twice,
      );
    }
  }
  // The walk costs something on a large body; the text tells first whether it can find anything.
  if (jsonTextMayHoldNul(text)) {
    const param = findNul(parsed);
    if (param !== null) throw nulError(param, "body");
  }
  return parsed;
}
