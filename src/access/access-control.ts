// Before any route runs: who is calling, whether they are within their per-minute budget, and
// whether the route lets them in.
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../http/api-errors.js";
import type { AccessCheck, Admission, Caller } from "./authentication.js";
import { presentedKey } from "./presented-key.js";
import { type RateLimitDecision, type RateLimiter, workspaceSubject } from "./rate-limiter.js";
import type { RequestContext } from "../http/request-context.js";
import { isDatabaseUnavailable } from "../store/errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated caller, or null when no usable key came with the request. */
    caller: Caller | null;
    /** The caller's workspace, plan and read stamp, for the routes that need a key (see `contextOf`). */
    requestContext: RequestContext | null;
  }
  interface FastifyContextConfig {
    /** Served without a key (still rate limited, per client address). */
    public?: boolean;
  }
}

/** The request fields the access check sets, as every request starts (see `buildHttpServer`). */
export const accessRequestFields = { caller: null, requestContext: null } as const;

export interface AccessControlOptions {
  /** The database's access check (sqlite-access-check.ts or postgres-access-check.ts). */
  readonly accessCheck: AccessCheck;
  readonly rateLimiter: RateLimiter;
  readonly anonymousRequestsPerMinute: number;
}

/**
 * The access check of every request: its caller (`request.caller`), its place in the per-minute budget
 * (the rate-limit headers), and a refusal, thrown, when it may not go on. Returns a promise only when
 * the store must be asked (a key not remembered, a new block of rate-limit hits); the other requests,
 * most of them, are checked without one.
 */
export function accessControl(options: AccessControlOptions) {
  function admit(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string | undefined,
    admission: Admission,
    now: number,
  ) {
    const { caller, readStamp, windowHits } = admission;
    request.caller = caller;
    if (caller !== null) {
      request.requestContext = { workspaceId: caller.workspaceId, plan: caller.plan, readStamp };
    }
    // A request without a usable key counts against its client address, so keys cannot be guessed at speed.
    const decision = caller
      ? options.rateLimiter.hit(
          workspaceSubject(caller.workspaceId),
          caller.plan.requestsPerMinute,
          now,
          windowHits,
        )
      : options.rateLimiter.hit(`ip:${request.ip}`, options.anonymousRequestsPerMinute, now, windowHits);
    if (decision instanceof Promise) return decision.then((d) => decide(request, reply, key, caller, d));
    decide(request, reply, key, caller, decision);
  }

  function decide(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string | undefined,
    caller: Caller | null,
    decision: RateLimitDecision,
  ): void {
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
  }

  function check(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const key = presentedKey(request.raw.rawHeaders);
    const now = Date.now();
    const admission = options.accessCheck.admit(key, now);
    if (admission instanceof Promise) {
      return admission.then((admitted) => admit(request, reply, key, admitted, now));
    }
    return admit(request, reply, key, admission, now);
  }

  return function checkAccess(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const checked = check(request, reply);
    if (!(checked instanceof Promise) || request.routeOptions.config.public !== true) return checked;
    // A public route (the OpenAPI document) needs nothing from the database: while it cannot be
    // reached, the route is served anyway, without rate-limit headers, rather than refused with a 503.
    return checked.catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) throw error;
      request.caller = null;
    });
  };
}

/** The caller of a route that requires a key (the access check has already refused everyone else). */
export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === null) throw new ApiError("unauthorized", "This endpoint needs an API key.");
  return request.caller;
}

/** The context of a route that requires a key: the caller's workspace and plan, and the read stamp. */
export function contextOf(request: FastifyRequest): RequestContext {
  if (request.requestContext === null) throw new ApiError("unauthorized", "This endpoint needs an API key.");
  return request.requestContext;
}
