// The API keys API's responses (and the environment its requests share): each shape defined once, as
// the schema the routes document and serialise by, and as the type (`Static`) the service returns.
import { type Static, Type } from "typebox";
import { NullableTimestamp, refTo, Timestamp } from "../http/common-schemas.js";

export const Environment = Type.Union([Type.Literal("live"), Type.Literal("test")], {
  "x-error-message": 'must be "live" or "test".',
});

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    masked_key: Type.String({ examples: ["vr_live_****a1b2"] }),
    environment: Environment,
    last_used_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
    created_at: Timestamp,
  },
  { $id: "ApiKey", description: "An API key as listed: never the full key." },
);
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyList = Type.Object({ data: Type.Array(refTo(ApiKey)) }, { $id: "ApiKeyList" });

export const CreatedKey = Type.Object(
  {
    id: Type.String(),
    key: Type.String({ description: "The full key: shown this once." }),
    label: Type.String(),
  },
  { $id: "CreatedApiKey" },
);
export type CreatedKey = Static<typeof CreatedKey>;

/** The keys API's named schemas, for `app.addSchema`, each after the ones it refers to. */
export const keyComponents = [ApiKey, ApiKeyList, CreatedKey];
