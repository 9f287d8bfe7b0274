// Before any route runs: who is calling, whether they are within their per-minute budget, and
// whether the route lets them in.
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors.js";
import { type Authenticator, type Caller, presentedKey } from "../services/authentication.js";
import type { RateLimiter } from "../services/rate-limiter.js";
import type { WriteStamp } from "../store/database.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated caller, or null when no usable key came with the request. */
    caller: Caller | null;
    /** The store's write stamp as of this request's arrival (SQLite), shared by its lookups. */
    writeStamp: WriteStamp | undefined;
  }
  interface FastifyContextConfig {
    /** Served without a key (still rate limited, per client address). */
    public?: boolean;
  }
}

export interface AccessControlOptions {
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly anonymousRequestsPerMinute: number;
  writeStampForRequest(): WriteStamp | undefined;
}

export function accessControl(options: AccessControlOptions) {
  return async function checkAccess(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = presentedKey(request.headers);
    request.writeStamp = options.writeStampForRequest();
    const caller =
      key === undefined ? null : await options.authenticator.identify(key, Date.now(), request.writeStamp);
    request.caller = caller;

    // A request without a usable key counts against its client address, so keys cannot be guessed at speed.
    const decision = caller
      ? await options.rateLimiter.hit(`ws:${caller.workspaceId}`, caller.plan.requestsPerMinute)
      : await options.rateLimiter.hit(`ip:${request.ip}`, options.anonymousRequestsPerMinute);
    reply.header("ratelimit-limit", decision.limit);
    reply.header("ratelimit-remaining", decision.remaining);
    reply.header("ratelimit-reset", decision.resetSeconds);
    if (!decision.allowed) {
      reply.header("retry-after", decision.resetSeconds);
      throw new ApiError(
        "rate_limited",
        `Over the limit of ${decision.limit} requests per minute; retry in ${decision.resetSeconds} s.`,
      );
    }

    const isPublic = request.is404 || request.routeOptions.config.public === true;
    if (!isPublic && caller === null) {
      throw new ApiError(
        "unauthorized",
        key === undefined
          ? "No API key; send it as `Authorization: Bearer <key>` or `x-api-key: <key>`."
          : "The API key is not valid: it is malformed, unknown or revoked.",
      );
    }
  };
}

/** The caller of a route that requires a key (the access check has already refused everyone else). */
export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === null) throw new ApiError("unauthorized", "This endpoint needs an API key.");
  return request.caller;
}
