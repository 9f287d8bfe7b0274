// Bodies that may take longer to arrive than VIDROWS_REQUEST_TIMEOUT_SECONDS allows a request (an upload
// of a recording over a home connection): the route watches them itself, for stalls, and the connection
// closes after the answer.
import type { IncomingMessage } from "node:http";

interface ConnectionParser {
  remove?: () => void;
}

/**
 * Takes the request's connection out of the list Node's HTTP server checks against its whole-request
 * timeout (`requestTimeout`), which would cut off a large upload that is still arriving. Node offers no
 * per-request setting; its parser's `remove()` is what it calls itself for a connection it stops
 * tracking. The connection is no longer checked for its next request either, so the caller answers with
 * `connection: close`. Answers whether the connection was taken out (false on a Node without the call:
 * the whole-request timeout then holds for the upload too).
 */
export function exemptFromRequestTimeout(request: IncomingMessage): boolean {
  const parser = (request.socket as unknown as { parser?: ConnectionParser } | null)?.parser;
  if (typeof parser?.remove !== "function") return false;
  parser.remove();
  return true;
}
