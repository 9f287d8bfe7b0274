// The structured logger of a process: pino, set up as Fastify sets up its own.
import type { FastifyBaseLogger } from "fastify";
import pino from "pino";

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
