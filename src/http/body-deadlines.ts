// How long a request's body may take to arrive (VIDROWS_REQUEST_TIMEOUT_SECONDS), kept by vidrows rather
// than by Node's own `requestTimeout`, so that one route can lift it: an upload of a recording over a
// home connection may take an hour and is watched for stalls by its route instead (upload-body.ts).
// Node offers no per-request setting, and taking a connection out of its list (its parser's `remove()`)
// stops the body flowing on Node.js 22 and later; so Node times only the headers (`headersTimeout`) and
// this times the bodies, for every route but the ones that take a request over.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Requests whose route watches their body itself; the deadline no longer applies to them. */
const watchedByTheirRoute = new WeakSet<IncomingMessage>();

/**
 * Lifts the whole-request deadline from `request`: its route answers for how long its body may take
 * (an upload cuts off a body that stalls). Called before the route reads the body.
 */
export function exemptFromRequestTimeout(request: IncomingMessage): void {
  watchedByTheirRoute.add(request);
}

/** The timed-out error as Node's own `requestTimeout` raises it, for the server's client-error answer. */
function requestTimedOut(): Error & { code: string } {
  return Object.assign(new Error("Request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });
}

/**
 * Cuts off every request whose body has not all arrived `requestMs` after its headers did, unless its
 * route lifted the deadline: answered with `answerTimeout` (the server's client-error answer) while
 * nothing of a response was sent, else the socket is closed. Requests without a body are never
 * tracked; the others are looked at every `checkEveryMs` (as Node looks for late headers), so one is
 * cut off between `requestMs` and `requestMs + checkEveryMs` after its headers. Stops with the server.
 */
export function enforceBodyDeadline(
  server: Server,
  requestMs: number,
  checkEveryMs: number,
  answerTimeout: (error: Error & { code: string }, socket: Socket) => void,
): void {
  /** Requests with a body still to come, by their response, with when their headers arrived. */
  const arriving = new Map<ServerResponse, number>();
  // Before the framework's own listener, so that even a request it refuses at once is timed.
  server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    const headers = request.headers;
    if (headers["content-length"] === undefined && headers["transfer-encoding"] === undefined) return;
    arriving.set(response, Date.now());
  });
  const check = setInterval(() => {
    const now = Date.now();
    for (const [response, since] of arriving) {
      const request = response.req;
      const socket = request.socket as Socket | null;
      if (request.complete || !socket || socket.destroyed || watchedByTheirRoute.has(request)) {
        arriving.delete(response);
      } else if (now - since >= requestMs) {
        arriving.delete(response);
        // Once a response has begun, another answer on the socket would corrupt it: close it only.
        if (response.headersSent) socket.destroy();
        else answerTimeout(requestTimedOut(), socket);
      }
    }
  }, checkEveryMs);
  check.unref();
  server.once("close", () => {
    clearInterval(check);
    arriving.clear();
  });
}
