// Every failure leaves as the one error envelope; bad input is a 4xx, only a bug is a 500.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, errorBody } from "./api-errors.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { validationError } from "./validation-errors.js";

type ValidationPart = "body" | "querystring" | "params" | "headers";

/**
 * A 500 is a bug: logged at error with its stack. A 503 is expected (no model configured, the database
 * down or its disk full): logged at warn with its code and message, the stack only at debug, so that an
 * outage does not bury the log in identical stacks.
 */
function logFailure(error: unknown, apiError: ApiError, request: FastifyRequest): void {
  if (apiError.status < 500) return;
  if (apiError.status !== 503) {
    request.log.error({ err: error }, "request failed");
    return;
  }
  const cause = error as { code?: unknown; message?: unknown };
  const code = typeof cause.code === "string" ? cause.code : apiError.code;
  request.log.warn({ code, reason: String(cause.message ?? apiError.message) }, "request refused");
  request.log.debug({ err: error }, "request refused");
}

/** Maps anything thrown while serving a request to the ApiError the client should see. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as Partial<FastifyError> & { validationContext?: ValidationPart };
  if (e.validation) return validationError(e.validation as never, e.validationContext ?? "body");
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("payload_too_large", "The request body is over the limit of 1 MiB.");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError(
        "unsupported_media_type",
        "Send the request body as JSON, with the header `content-type: application/json`.",
      );
    case "FST_ERR_BAD_URL":
      return new ApiError(
        "invalid_request",
        "The URL is not valid: each `%` must start a percent-encoded UTF-8 character, such as `%20`.",
      );
    case "FST_ERR_MAX_PARAM_LENGTH":
      return new ApiError(
        "invalid_request",
        "An id in the URL path is too long; no id is over 100 characters.",
      );
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError("invalid_request", "The `content-length` header does not match the body.");
  }
  // PostgreSQL refuses text it cannot store (a NUL, say) that slipped past the checks at the door: the
  // input is at fault, not the server.
  if (e.code === "22021" || e.code === "22P05") {
    return new ApiError(
      "invalid_request",
      "The request holds text that cannot be stored (a NUL character?).",
    );
  }
  if (isDatabaseUnavailable(error)) {
    return new ApiError("unavailable", "The database cannot be reached right now; try again shortly.");
  }
  const status = typeof e.statusCode === "number" ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return new ApiError("invalid_request", String(e.message ?? "The request is not valid."));
  }
  return new ApiError("internal_error", "Something went wrong on our side; it has been logged.");
}

/** How long a client is asked to wait before trying again while the database cannot be reached. */
export const unavailableRetryAfterSeconds = 5;

/** How long a client is asked to wait before asking a platform that refused or did not answer again. */
export const platformRetryAfterSeconds = 30;

export function sendError(error: ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === "unavailable") reply.header("retry-after", unavailableRetryAfterSeconds);
  if (error.code === "platform_unavailable") reply.header("retry-after", platformRetryAfterSeconds);
  return reply.code(error.status).type("application/json; charset=utf-8").send(errorBody(error, request.id));
}

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const apiError = toApiError(error);
  logFailure(error, apiError, request);
  return sendError(apiError, request, reply);
}
