// How the OpenAPI document is made: @fastify/swagger's settings, and the response headers every answer carries.
import type { SwaggerOptions } from "@fastify/swagger";

type Json = Record<string, unknown>;

interface HeaderObject {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: Json;
}

const integerHeader = (description: string): HeaderObject => ({
  description,
  required: true,
  schema: { type: "integer", minimum: 0 },
});

/**
 * The headers the API sends, under `components.headers`. A response names one by its header name;
 * the key here is that name without dashes (component keys are identifiers, header names are not).
 */
const componentHeaders: Record<string, { name: string; header: HeaderObject }> = {
  RequestId: {
    name: "x-request-id",
    header: {
      description:
        "This request's id (the client's own `x-request-id` when it is sane); quote it in support requests.",
      required: true,
      schema: { type: "string", minLength: 1, maxLength: 128 },
    },
  },
  RateLimitLimit: {
    name: "RateLimit-Limit",
    header: integerHeader("Requests allowed in the current minute."),
  },
  RateLimitRemaining: {
    name: "RateLimit-Remaining",
    header: integerHeader("Requests left in the current minute."),
  },
  RateLimitReset: { name: "RateLimit-Reset", header: integerHeader("Seconds until the minute starts over.") },
  RetryAfter: { name: "Retry-After", header: integerHeader("Seconds to wait before trying again.") },
  IdempotentReplayed: {
    name: "Idempotent-Replayed",
    header: {
      description: "`true` when this is the first answer to the same `Idempotency-Key`, sent again.",
      schema: { type: "string", enum: ["true"] },
    },
  },
  Allow: {
    name: "Allow",
    header: {
      description: "The methods the path does take, comma-separated.",
      required: true,
      schema: { type: "string", examples: ["GET, POST"] },
    },
  },
};

const headerRef = (key: string) => ({ $ref: `#/components/headers/${key}` });

/**
 * Statuses whose answers may come before the access check has counted the request, and so without the
 * rate-limit headers: a URL that cannot be read (400), two credentials in one request (401), the store
 * away while the key is looked up (503), and a bug (500).
 */
const beforeAccessCheck = new Set(["400", "401", "500", "503"]);

/**
 * Declares on every answer of every operation the headers the server sends with it: `x-request-id`
 * always, the rate-limit headers once the access check has run, `Retry-After` on 429. A header a route
 * declares itself under a component header's name is replaced by a reference to that component.
 */
export function declareResponseHeaders(document: Json): Json {
  const byName = new Map(
    Object.entries(componentHeaders).map(([key, { name }]) => [name.toLowerCase(), key]),
  );
  for (const item of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item) as Json[]) {
      if (typeof operation !== "object" || operation === null) continue;
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        const own: Json = {};
        for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
          const key = byName.get(name.toLowerCase());
          own[key ? (componentHeaders[key]?.name ?? name) : name] = key ? headerRef(key) : header;
        }
        const headers: Json = { "x-request-id": headerRef("RequestId") };
        if (!beforeAccessCheck.has(status)) {
          headers["RateLimit-Limit"] = headerRef("RateLimitLimit");
          headers["RateLimit-Remaining"] = headerRef("RateLimitRemaining");
          headers["RateLimit-Reset"] = headerRef("RateLimitReset");
        }
        if (status === "429") headers["Retry-After"] = headerRef("RetryAfter");
        response.headers = { ...headers, ...own };
      }
    }
  }
  return document;
}

/** `components.headers`, keyed as `declareResponseHeaders` refers to them. */
export function headerComponents(): Record<string, HeaderObject> {
  return Object.fromEntries(Object.entries(componentHeaders).map(([key, { header }]) => [key, header]));
}

/** A 405 answer: no operation can name it (it answers the methods a path has no operation for). */
export const methodNotAllowedResponse = {
  description:
    "The path exists, but not with this method: `method_not_allowed`. `Allow` lists the methods it takes.",
  headers: { "x-request-id": headerRef("RequestId"), Allow: headerRef("Allow") },
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

/** Every operation's tag, Jobs first: what the API is for, then what jobs use, then the account. */
export const documentTags = [
  { name: "Jobs", description: "Submit videos with a schema, follow the job, take its rows once." },
  {
    name: "Videos",
    description: "The videos of a playlist or channel, listed without creating anything, to submit as a job.",
  },
  {
    name: "Uploads",
    description: "Audio and video files of your own, stored and measured for jobs, and deleted after.",
  },
  { name: "Schemas", description: "Saved schemas, versioned, for jobs to name by `schema_id`." },
  {
    name: "Webhooks",
    description: "Endpoints that are told when jobs start and settle, and their deliveries.",
  },
  { name: "Usage", description: "The workspace's plan, credits and hard cap." },
  { name: "API keys", description: "The keys that call the API: list, create, revoke." },
  { name: "Reference", description: "This document." },
];

/** @fastify/swagger's settings: OpenAPI 3.1, named components, the servers and security schemes. */
export const swaggerOptions: SwaggerOptions = {
  openapi: {
    openapi: "3.1.0",
    info: {
      title: "vidrows",
      version: "1",
      description:
        "Structured rows from videos. Every error answer has the shape of the `Error` schema; `error.code` is stable, and each response lists the codes its status carries.",
    },
    // Relative: the API is described where it is served, whatever host or proxy a deployment puts in
    // front of it, so the reference at /docs and generated clients reach the server that sent the document.
    servers: [{ url: "/", description: "The server that serves this document." }],
    // In the order a reader meets them: the reference at /docs lists its sections as they stand here.
    tags: documentTags,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "`Authorization: Bearer vr_live_...`. One credential header per request: two (this one twice, or with `x-api-key`) are 401.",
        },
        apiKeyHeader: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description:
            "`x-api-key: vr_live_...`. One credential header per request: two (this one twice, or with `Authorization`) are 401.",
        },
      },
      headers: headerComponents(),
      responses: { MethodNotAllowed: methodNotAllowedResponse },
    },
    security: [{ bearer: [] }, { apiKeyHeader: [] }],
  },
  // A schema registered with `app.addSchema` is named by its `$id` under `components.schemas` (the
  // plugin's default would call it `def-0`, `def-1`...).
  refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  transformObject: (documentObject) =>
    declareResponseHeaders((documentObject as unknown as { openapiObject: Json }).openapiObject) as never,
};
