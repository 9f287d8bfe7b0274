// Sends an answer as JSON text made once per answer object: answers the services remember are sent many times.
import type { FastifyReply } from "fastify";

const jsonOf = new WeakMap<object, string>();

/**
 * Sends `body` as JSON. The text is kept beside `sameAs` (the body itself unless the body wraps a
 * remembered object), so an answer served again from memory is not serialised again. The route's
 * response schema still documents the shape; the services build answers of exactly that shape.
 */
export function sendJsonAnswer(reply: FastifyReply, body: object, sameAs: object = body): FastifyReply {
  let json = jsonOf.get(sameAs);
  if (json === undefined) {
    json = JSON.stringify(body);
    jsonOf.set(sameAs, json);
  }
  return reply.type("application/json; charset=utf-8").send(json);
}
