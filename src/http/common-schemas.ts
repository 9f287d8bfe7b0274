// Schemas shared by many routes: timestamps and the error envelope.
import { Type } from "typebox";
import { errorStatuses } from "../errors.js";

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
