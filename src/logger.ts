// The structured logger of a process: pino, set up as Fastify sets up its own.
import type { FastifyBaseLogger } from "fastify";
import pino from "pino";
import { isDatabaseUnavailable } from "./store/errors.js";

// Fastify's serializers for a request and a reply (lib/logger-pino.js), for lines that carry one.
const serializers = {
  req: (request: {
    method: string;
    url: string;
    headers?: Record<string, unknown>;
    host?: string;
    ip?: string;
    socket?: { remotePort?: number };
  }) => ({
    method: request.method,
    url: request.url,
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  }),
  res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
  err: pino.stdSerializers.err,
};

/**
 * One JSON object a line on standard output, in the shape Fastify's logger writes (the HTTP server
 * logs through this one: see server.ts), so one log pipeline reads every kind of process.
 */
export function createLogger(level: string): FastifyBaseLogger {
  return pino({ level, redact: ["req.headers.authorization", 'req.headers["x-api-key"]'], serializers });
}

/**
 * Logs a failure of background work (a claim, a renewal, a settlement): an outage of the database (down,
 * its disk full) is expected and passes, so it is a warning with its code and no stack (the stack at
 * debug); anything else may be a bug, logged at error with its stack.
 */
export function logBackgroundFailure(
  log: FastifyBaseLogger,
  error: unknown,
  fields: Record<string, unknown>,
  message: string,
): void {
  if (!isDatabaseUnavailable(error)) {
    log.error({ err: error, ...fields }, message);
    return;
  }
  const cause = error as { code?: unknown; message?: unknown };
  log.warn(
    { ...fields, code: cause.code, reason: String(cause.message) },
    `${message}: database unavailable`,
  );
  log.debug({ err: error, ...fields }, message);
}
