// @vidrows/client: the typed client of the vidrows API, for Node 20+ and browsers (fetch and Web Crypto only).
export { Vidrows, defaultBaseUrl, type VidrowsOptions } from "./client.js";
export {
  VidrowsError,
  isVidrowsError,
  type ApiErrorCode,
  type ClientErrorCode,
  type RateLimit,
  type VidrowsErrorCode,
} from "./errors.js";
export {
  verifyWebhook,
  VidrowsWebhookError,
  type VerifyOptions,
  type WebhookErrorCode,
  type WebhookEvent,
  type WebhookHeaders,
} from "./webhook-verification.js";
export { rowsState, type RowsState } from "./rows-state.js";
export { csvField, csvLine, csvText, neutraliseFormula, type CsvCell } from "./csv.js";
export type { RetryMode } from "./retry-policy.js";
export type { RequestOptions } from "./transport.js";
export type { SubmitOptions, WaitOptions } from "./resources/jobs.js";
export type { UploadOptions, UploadSource } from "./resources/uploads.js";
export type * from "./api-types.js";
export type { paths } from "./generated/openapi.js";
