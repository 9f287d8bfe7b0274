// How long a client may take (VIDROWS_*_TIMEOUT_SECONDS).
import { ConfigError, integerSetting } from "./setting-values.js";

/** How long a client may take, so that slow or stalled ones cannot hold the server's sockets. */
export interface HttpTimeouts {
  /** VIDROWS_HEADERS_TIMEOUT_SECONDS: from connecting to the end of the request's headers. */
  readonly headersMs: number;
  /** VIDROWS_REQUEST_TIMEOUT_SECONDS: from connecting to the end of the whole request, body included. */
  readonly requestMs: number;
  /** VIDROWS_KEEP_ALIVE_TIMEOUT_SECONDS: how long an idle kept-alive connection waits for its next request. */
  readonly keepAliveMs: number;
}

export function httpTimeouts(env: NodeJS.ProcessEnv): HttpTimeouts {
  const headers = integerSetting(env, "VIDROWS_HEADERS_TIMEOUT_SECONDS", 10, 1, 3600);
  const request = integerSetting(env, "VIDROWS_REQUEST_TIMEOUT_SECONDS", 30, 1, 3600);
  // Node refuses a headers limit past the whole request's, which includes them.
  if (headers > request) {
    throw new ConfigError(
      `VIDROWS_HEADERS_TIMEOUT_SECONDS (${headers}) must not be more than VIDROWS_REQUEST_TIMEOUT_SECONDS (${request}).`,
    );
  }
  // 72 s by default, as Fastify's: longer than the idle timeout of common load balancers (60 s), so
  // that one never sends a request down a connection the server has just closed.
  const keepAlive = integerSetting(env, "VIDROWS_KEEP_ALIVE_TIMEOUT_SECONDS", 72, 1, 3600);
  return Object.freeze({
    headersMs: headers * 1000,
    requestMs: request * 1000,
    keepAliveMs: keepAlive * 1000,
  });
}
