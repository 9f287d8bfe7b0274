// Request ids: the client's own `x-request-id` when it is sane, else a fresh `req_` id.
import type { IncomingMessage } from "node:http";
import { newId } from "../domain/ids.js";

const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers["x-request-id"];
  if (typeof sent === "string" && saneRequestId.test(sent)) return sent;
  return newId("req");
}
