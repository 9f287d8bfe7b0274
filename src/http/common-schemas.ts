// Schemas shared by many routes: timestamps, paging, the error envelope and the per-status error answers.
import { type Static, type TSchema, Type } from "typebox";
import { type ErrorCode, errorStatuses } from "./api-errors.js";

export const Timestamp = Type.String({
  description: "UTC, `YYYY-MM-DD HH:MM:SS`.",
  examples: ["2026-11-22 15:04:05"],
});
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** The `$id` of a named schema: its name under the OpenAPI document's `components.schemas`. */
export function schemaName(schema: TSchema): string {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== "string")
    throw new Error("Only a schema with an `$id` (a named schema) can be referred to.");
  return id;
}

/**
 * A reference to a named schema (registered with `app.addSchema`), typed as the schema itself, so that
 * routes and services keep their static types while the document says `$ref` instead of a copy. As a
 * route's response: `description` describes the response, and `headers` names the headers it may carry
 * (the document refers to `components.headers` for them; see openapi-document.ts).
 */
export function refTo<T extends TSchema>(
  schema: T,
  options: { description?: string; headers?: Record<string, object> } = {},
) {
  return Type.Unsafe<Static<T>>({ $ref: schemaName(schema), ...options } as unknown as TSchema);
}

const errorCodes = Object.keys(errorStatuses) as ErrorCode[];

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      // One `enum` (not a union of literals), so that documents and generated clients list the codes as one type.
      code: Type.Unsafe<ErrorCode>({
        type: "string",
        enum: errorCodes,
        description: "Stable; branch on this. Each response lists the codes its status carries.",
      }),
      message: Type.String({ description: "For people; may change." }),
      param: Type.Optional(Type.String({ description: "The input field to blame, when there is one." })),
      request_id: Type.String({ description: "The `x-request-id` of the answer." }),
    }),
  },
  { $id: "Error", description: "The one shape of every error answer." },
);

/** What each error status means for a client: the start of its response's description. */
const statusMeanings: Record<number, string> = {
  400: "The request is not valid",
  401: "No usable API key",
  402: "Credits cannot pay",
  403: "Over a limit of the plan",
  404: "Not found",
  409: "Conflict",
  413: "The body is over 1 MiB",
  415: "The body is not JSON as UTF-8, uncompressed (a content-encoding other than identity, or a charset other than utf-8)",
  429: "Over the per-minute limit (or, listing, too many of the workspace's listings waiting); `Retry-After` says when to try again",
  500: "A bug on our side",
  503: "Unavailable for now",
  507: "The upload storage has too little free space for the file",
};

/** Answers every route can give: a bad query or URL, no key, the rate limit, a bug, the database away. */
const everyRoute: ErrorCode[] = [
  "invalid_request",
  "unauthorized",
  "rate_limited",
  "internal_error",
  "unavailable",
];
/** Answers of every route that reads a body. */
const withBody: ErrorCode[] = ["payload_too_large", "unsupported_media_type"];

/**
 * One response per error status a route can answer, each the `Error` envelope with `code` narrowed to the
 * codes of that status (so a generated client knows which codes a 404 of this route carries). `codes`:
 * the route's own codes beyond those of every route; `body`: it reads a body (413, 415); `public`: it
 * needs no key (no 401).
 */
export function errorAnswers(options: { codes?: ErrorCode[]; body?: boolean; public?: boolean } = {}) {
  const codes = new Set<ErrorCode>([
    ...everyRoute,
    ...(options.body ? withBody : []),
    ...(options.codes ?? []),
  ]);
  if (options.public) codes.delete("unauthorized");
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes) {
    if (!codes.has(code)) continue;
    const status = errorStatuses[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const answers: Record<number, TSchema> = {};
  for (const [status, statusCodes] of byStatus) {
    const listed = statusCodes.map((code) => `\`${code}\``).join(", ");
    answers[status] = Type.Unsafe<Static<typeof ErrorEnvelope>>({
      description: `${statusMeanings[status]}: ${listed}.`,
      allOf: [
        { $ref: schemaName(ErrorEnvelope) },
        {
          type: "object",
          required: ["error"],
          properties: {
            error: { type: "object", required: ["code"], properties: { code: { enum: statusCodes } } },
          },
        },
      ],
    } as unknown as TSchema);
  }
  return answers;
}

/** The paging parameters every paged list takes: `limit` 1 to 100 (default 25) and `offset`. */
export const pageParameters = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
};

export const Pagination = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    offset: Type.Integer({ minimum: 0 }),
    has_more: Type.Boolean(),
  },
  { $id: "Pagination", description: "Where a page sits in the whole list." },
);

/** A page of `item`s (a named schema) with where it sits in the whole list, named `$id`. */
export function Page<T extends TSchema>(item: T, $id: string) {
  return Type.Object({ data: Type.Array(refTo(item)), pagination: refTo(Pagination) }, { $id });
}
