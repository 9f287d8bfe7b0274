// Schemas shared by many routes: timestamps and the error envelope.
import { type TSchema, Type } from "typebox";
import { errorStatuses } from "./api-errors.js";

export const Timestamp = Type.String({
  description: "UTC, `YYYY-MM-DD HH:MM:SS`.",
  examples: ["2026-11-22 15:04:05"],
});
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(
        Object.keys(errorStatuses).map((code) => Type.Literal(code)),
        { description: "Stable; branch on this." },
      ),
      message: Type.String({ description: "For people; may change." }),
      param: Type.Optional(Type.String({ description: "The input field to blame, when there is one." })),
      request_id: Type.String(),
    }),
  },
  { description: "The one shape of every error answer." },
);

/** Added to every route so that its error answers are documented and serialised by one schema. */
export const errorResponses = {
  "4xx": ErrorEnvelope,
  "5xx": ErrorEnvelope,
};

/** The paging parameters every paged list takes: `limit` 1 to 100 (default 25) and `offset`. */
export const pageParameters = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }),
};

/** A page of `item`s with where it sits in the whole list. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    pagination: Type.Object({
      total: Type.Integer(),
      limit: Type.Integer(),
      offset: Type.Integer(),
      has_more: Type.Boolean(),
    }),
  });
}
