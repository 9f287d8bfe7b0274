// Requests Node's HTTP parser refuses before Fastify sees them (control characters in a header,
// oversized headers, garbage request lines) still get the one error envelope.
import type { Socket } from "node:net";
import { newId } from "../domain/ids.js";
import { ApiError, errorBody } from "./api-errors.js";

interface ClientError extends Error {
  code?: string;
}

function describe(error: ClientError): string {
  if (error.code === "HPE_HEADER_OVERFLOW") return "The request headers are too large.";
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return "The request took too long to arrive.";
  return "The request is not valid HTTP (a header or the request line has characters that are not allowed).";
}

/** Fastify's `clientErrorHandler`: answers 400 in the envelope, with a fresh request id, and closes. */
export function answerClientError(error: ClientError, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) {
    const requestId = newId("req");
    const body = JSON.stringify(errorBody(new ApiError("invalid_request", describe(error)), requestId));
    socket.write(
      "HTTP/1.1 400 Bad Request\r\n" +
        "content-type: application/json; charset=utf-8\r\n" +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        "connection: close\r\n\r\n" +
        body,
    );
  }
  socket.destroy(error);
}
