// VidrowsError: every failure the client reports, from the server's error envelope or from the client itself.

/** The codes the server answers with (contract §3; kept equal to the server's list by a test). */
export type ApiErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "insufficient_credits"
  | "hard_cap_reached"
  | "plan_limit"
  | "job_not_found"
  | "schema_not_found"
  | "schema_version_not_found"
  | "webhook_not_found"
  | "key_not_found"
  | "delivery_not_found"
  | "listing_not_found"
  | "upload_not_found"
  | "not_found"
  | "method_not_allowed"
  | "schema_name_taken"
  | "idempotency_conflict"
  | "job_settled"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "internal_error"
  | "extraction_unavailable"
  | "listing_unavailable"
  | "platform_unavailable"
  | "unavailable"
  | "insufficient_storage";

/**
 * The client's own codes: `network_error` (no answer: refused, reset, DNS), `timeout` (no full answer
 * within `timeoutMs`), `aborted` (the caller's signal), `invalid_response` (an answer that is not the
 * API's, such as a proxy's HTML error page).
 */
export type ClientErrorCode = "network_error" | "timeout" | "aborted" | "invalid_response";

export type VidrowsErrorCode = ApiErrorCode | ClientErrorCode;

/** The `RateLimit-*` headers of the answer (contract §4). */
export interface RateLimit {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the budget is full again. */
  readonly resetSeconds: number;
}

export interface VidrowsErrorDetails {
  readonly code: VidrowsErrorCode;
  readonly message: string;
  /** The HTTP status, or null when no answer arrived. */
  readonly status?: number | null;
  readonly param?: string | null;
  readonly requestId?: string | null;
  readonly rateLimit?: RateLimit | null;
  readonly retryAfterSeconds?: number | null;
  readonly cause?: unknown;
}

export class VidrowsError extends Error {
  override readonly name = "VidrowsError";
  readonly code: VidrowsErrorCode;
  readonly status: number | null;
  /** The input field to blame, when the server named one. */
  readonly param: string | null;
  /** The server's `request_id` (or `x-request-id`), to quote when asking for help. */
  readonly requestId: string | null;
  readonly rateLimit: RateLimit | null;
  readonly retryAfterSeconds: number | null;

  constructor(details: VidrowsErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.status = details.status ?? null;
    this.param = details.param ?? null;
    this.requestId = details.requestId ?? null;
    this.rateLimit = details.rateLimit ?? null;
    this.retryAfterSeconds = details.retryAfterSeconds ?? null;
  }
}

export function isVidrowsError(value: unknown): value is VidrowsError {
  return value instanceof VidrowsError;
}

function headerNumber(headers: Headers, name: string): number | null {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === "") return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** `Retry-After` in seconds: a number of seconds, or an HTTP date. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const seconds = headerNumber(headers, "retry-after");
  if (seconds !== null) return Math.max(0, seconds);
  const raw = headers.get("retry-after");
  if (raw === null) return null;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

export function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = headerNumber(headers, "ratelimit-limit");
  const remaining = headerNumber(headers, "ratelimit-remaining");
  const resetSeconds = headerNumber(headers, "ratelimit-reset");
  if (limit === null || remaining === null || resetSeconds === null) return null;
  return { limit, remaining, resetSeconds };
}

interface Envelope {
  error: { code: string; message: string; param?: string; request_id?: string };
}

function isEnvelope(value: unknown): value is Envelope {
  const error = (value as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  return typeof error === "object" && typeof error?.code === "string" && typeof error.message === "string";
}

/** The VidrowsError for a non-2xx answer whose body (already read) is `text`. */
export function errorFromAnswer(response: Response, text: string): VidrowsError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const common = {
    status: response.status,
    requestId: response.headers.get("x-request-id"),
    rateLimit: rateLimitOf(response.headers),
    retryAfterSeconds: retryAfterSeconds(response.headers),
  };
  if (!isEnvelope(parsed)) {
    return new VidrowsError({
      ...common,
      code: "invalid_response",
      message: `HTTP ${response.status} without the API's error body: ${text.slice(0, 200)}`,
    });
  }
  return new VidrowsError({
    ...common,
    // The server's code, trusted as one of the union: a test keeps the union equal to the server's list.
    code: parsed.error.code as ApiErrorCode,
    message: parsed.error.message,
    param: parsed.error.param,
    requestId: parsed.error.request_id ?? common.requestId,
  });
}
