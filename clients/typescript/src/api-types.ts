// The API's request and response types, read from the generated `paths` by path and method only, so that
// they survive changes to how the document names its schemas.
import type { paths } from "./generated/openapi.js";

export type Path = keyof paths;
export type Method = "get" | "post" | "patch" | "delete";

/** The operation at `path` and `method`, as the generator wrote it (inline, or a named `operations[...]`). */
type Operation<P extends Path, M extends Method> = Exclude<paths[P][M], undefined>;
type Responses<P extends Path, M extends Method> = Operation<P, M>["responses"];
type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON body of the operation's 2xx answer (200, 201 or 202). */
export type SuccessBody<P extends Path, M extends Method> = {
  [S in keyof Responses<P, M>]: S extends 200 | 201 | 202 ? JsonOf<Responses<P, M>[S]> : never;
}[keyof Responses<P, M>];

/** The operation's JSON request body. */
export type RequestBody<P extends Path, M extends Method> = JsonOf<
  NonNullable<Operation<P, M>["requestBody"]>
>;

/** The operation's query parameters. */
export type QueryParameters<P extends Path, M extends Method> = NonNullable<
  Operation<P, M>["parameters"]["query"]
>;

// Uploads
export type Upload = SuccessBody<"/v1/uploads", "post">;
export type UploadList = SuccessBody<"/v1/uploads", "get">;

// Jobs
export type SubmitJobBody = RequestBody<"/v1", "post">;
export type JobCreated = SuccessBody<"/v1", "post">;
export type JobListQuery = QueryParameters<"/v1", "get">;
export type JobPage = SuccessBody<"/v1", "get">;
export type JobListItem = JobPage["data"][number];
export type JobCounts = JobListItem["counts"];
/** A job's read: the running shape (`results: null`) or the settled one, with the rows in the one read that takes them. */
export type JobRead = SuccessBody<"/v1/{job_id}", "get">;
export type SettledJob = Exclude<JobRead, { status: "processing" }>;
export type VideoResult = SettledJob["results"][number];
/** A done video's rows as the one read that takes them has them: `results`, and `sources` of the same length. */
export type VideoRows = NonNullable<Extract<VideoResult, { status: "done" }>["rows"]>;
/**
 * Where a row came from: `start_seconds`, `end_seconds`, a `url` that opens the video at the start, the
 * `quote` of what was said there, and the columns whose values it does not hold (`unverified`).
 */
export type RowSource = VideoRows["sources"][number];
/** A job's videos as they stand (`GET /v1/{job_id}/videos`): never rows, so reading it takes nothing. */
export type JobVideoList = SuccessBody<"/v1/{job_id}/videos", "get">;
/** One video of a job: `queued` or `processing`, or settled (`done` with `usage`, `failed` with `error`). */
export type VideoProgress = JobVideoList["data"][number];
/** A cancellation's answer: the running shape, with the counts as the cancellation left them. */
export type CancelledJob = SuccessBody<"/v1/{job_id}/cancel", "post">;

// Playlists and channels
/** `from` (a playlist or channel URL) and `limit` (1 to 1000). */
export type VideoListingQuery = QueryParameters<"/v1/videos", "get">;
export type VideoListing = SuccessBody<"/v1/videos", "get">;
/** One listed video: `video_id`, `url` (what to submit), `title` and `duration_seconds` (either may be null). */
export type ListedVideo = VideoListing["data"][number];

// Usage
export type Usage = SuccessBody<"/v1/usage", "get">;
export type UsagePatch = RequestBody<"/v1/usage", "patch">;

// Schemas
export type SchemaList = SuccessBody<"/v1/schemas", "get">;
export type SavedSchema = SchemaList["data"][number];
export type CreateSchemaBody = RequestBody<"/v1/schemas", "post">;
export type SchemaPublished = SuccessBody<"/v1/schemas", "post">;
export type SavedSchemaDetail = SuccessBody<"/v1/schemas/{id}", "get">;
export type PublishVersionBody = RequestBody<"/v1/schemas/{id}/versions", "post">;
export type SchemaDefinition = CreateSchemaBody["schema"];

// Webhooks
export type WebhookEndpointList = SuccessBody<"/v1/webhooks", "get">;
export type WebhookEndpoint = WebhookEndpointList["data"][number];
export type CreateWebhookBody = RequestBody<"/v1/webhooks", "post">;
export type CreatedWebhookEndpoint = SuccessBody<"/v1/webhooks", "post">;
export type UpdateWebhookBody = RequestBody<"/v1/webhooks/{id}", "patch">;
export type DeliveryAttemptQuery = QueryParameters<"/v1/webhooks/{id}/deliveries", "get">;
export type DeliveryAttemptPage = SuccessBody<"/v1/webhooks/{id}/deliveries", "get">;
export type ResentDelivery = SuccessBody<"/v1/webhooks/{id}/deliveries/{delivery_id}/resend", "post">;
export type WebhookEventType = WebhookEndpoint["events"][number];

// API keys
export type ApiKeyList = SuccessBody<"/v1/keys", "get">;
export type ApiKey = ApiKeyList["data"][number];
export type CreateKeyBody = RequestBody<"/v1/keys", "post">;
export type CreatedKey = SuccessBody<"/v1/keys", "post">;
