// The one API key a request presents, read from the headers exactly as they arrived.
import { ApiError } from "../http/api-errors.js";

const credentialHeaders = new Set(["authorization", "x-api-key"]);

/**
 * The key sent as `Authorization: Bearer <key>` or `x-api-key: <key>`, if any, from the request's raw
 * header list (`request.raw.rawHeaders`: name, value, name, value...). The raw list is read because
 * Node's parsed headers hide a repeated header: it keeps the first `Authorization` and drops the
 * others, and joins repeated `x-api-key` values with ", ". A request carrying more than one credential
 * header, of either name, is refused whatever they hold: with two credentials, which one acts is a
 * guess (a garbage bearer beside a valid `x-api-key` must not pass on the strength of the second).
 */
export function presentedKey(rawHeaders: readonly string[]): string | undefined {
  const sent: { name: string; value: string }[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    if (credentialHeaders.has(name)) sent.push({ name, value: rawHeaders[i + 1] as string });
  }
  if (sent.length > 1) {
    throw new ApiError(
      "unauthorized",
      `Send one API key in one header, \`Authorization: Bearer <key>\` or \`x-api-key: <key>\`; ` +
        `this request has ${sent.length} (${sent.map((header) => header.name).join(", ")}).`,
    );
  }
  const [credential] = sent;
  if (credential === undefined) return undefined;
  if (credential.name === "authorization") return /^Bearer\s+(\S+)\s*$/i.exec(credential.value)?.[1];
  const key = credential.value.trim();
  return key.length > 0 ? key : undefined;
}
