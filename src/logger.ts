// The structured logger of a process that serves no HTTP (`vidrows worker`): pino, as Fastify sets it up.
import type { FastifyBaseLogger } from "fastify";
import pino from "pino";

/**
 * One JSON object a line on standard output, in the same shape as the HTTP server's lines (Fastify
 * logs through pino too), so one log pipeline reads both kinds of process.
 */
export function createLogger(level: string): FastifyBaseLogger {
  return pino({ level, redact: ["req.headers.authorization", 'req.headers["x-api-key"]'] });
}
