// Bodies that may take longer to arrive than VIDROWS_REQUEST_TIMEOUT_SECONDS allows a request (an upload
// of a recording over a home connection): the route watches them itself, for stalls, and the connection
// closes after the answer.
import type { IncomingMessage } from "node:http";

/**
 * Whether this Node.js lets a connection's parser be removed while its body still arrives: on Node.js 20 it
 * does; on 24 the body stops flowing once it is removed (uploads then stall), so there the whole-request
 * timeout holds for uploads too. 22 and 26 are not yet tested, so they are treated as 24.
 */
export const uploadsOutliveRequestTimeout = Number(process.versions.node.split(".")[0]) < 22;

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
  if (!uploadsOutliveRequestTimeout) return false;
  const parser = (request.socket as unknown as { parser?: ConnectionParser } | null)?.parser;
  if (typeof parser?.remove !== "function") return false;
  parser.remove();
  return true;
}
