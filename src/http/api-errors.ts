// The one error shape of the API: every failure a client sees is an ApiError with a code it can branch on.

/** Every error code the API answers with, and its HTTP status. */
export const errorStatuses = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  hard_cap_reached: 402,
  plan_limit: 403,
  job_not_found: 404,
  schema_not_found: 404,
  schema_version_not_found: 404,
  webhook_not_found: 404,
  key_not_found: 404,
  delivery_not_found: 404,
  listing_not_found: 404,
  upload_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  schema_name_taken: 409,
  idempotency_conflict: 409,
  job_settled: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  extraction_unavailable: 503,
  listing_unavailable: 503,
  platform_unavailable: 503,
  unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof errorStatuses;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.status = errorStatuses[code];
  }
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; param?: string; request_id: string };
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  const body: ErrorBody["error"] = { code: error.code, message: error.message, request_id: requestId };
  if (error.param !== undefined) body.param = error.param;
  return { error: body };
}
