// The API keys API's responses (and the environment its requests share): each shape defined once, as
// the schema the routes document and serialise by, and as the type (`Static`) the service returns.
import { type Static, Type } from "typebox";
import { NullableTimestamp, Timestamp } from "../http/common-schemas.js";

export const Environment = Type.Union([Type.Literal("live"), Type.Literal("test")], {
  "x-error-message": 'must be "live" or "test".',
});

export const ApiKey = Type.Object({
  id: Type.String(),
  label: Type.String(),
  masked_key: Type.String({ examples: ["vr_live_****a1b2"] }),
  environment: Environment,
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
  created_at: Timestamp,
});
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyList = Type.Object({ data: Type.Array(ApiKey) });

export const CreatedKey = Type.Object({ id: Type.String(), key: Type.String(), label: Type.String() });
export type CreatedKey = Static<typeof CreatedKey>;
