// The requests of `/v1`'s job routes, as validated and as the OpenAPI document gives them.
import { Type } from "typebox";
import { SchemaDefinition } from "../domain/schema-definition.js";
import { pageParameters } from "../http/common-schemas.js";

const SchemaId = Type.String({ minLength: 1, maxLength: 100, description: "A saved schema's id." });

export const SubmitBody = Type.Object(
  {
    videos: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
      minItems: 1,
      maxItems: 10_000,
      description:
        "YouTube URLs (watch?v=, youtu.be/, shorts/, embed/, live/, m., music.) or 11-character video ids; where the server has yt-dlp, also the https:// URL of a video on Vimeo, Dailymotion, TikTok, X, Instagram or Facebook (a page of theirs that names no video is 400) or of any other page yt-dlp reads (docs/platforms.md); or `upload:<upload_id>`, a file of this workspace from POST /v1/uploads that no job has taken (400 naming the element otherwise; one job per upload), whose video_id is that same string. Each exactly as sent: whitespace or an invisible character around or inside one is 400.",
    }),
    schema: Type.Optional(SchemaDefinition),
    schema_id: Type.Optional(SchemaId),
    schema_version: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: "Default: the latest at submission." }),
    ),
    language: Type.Optional(
      Type.String({
        maxLength: 35,
        pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$",
        description: "Preferred caption language (BCP-47); default: the video's own.",
        "x-error-message": 'must be a BCP-47 language tag such as "en" or "pt-BR".',
      }),
    ),
    transcribe: Type.Optional(
      Type.Union([Type.Literal("auto"), Type.Literal("never"), Type.Literal("always")], {
        description:
          "When to transcribe a video's audio (speech-to-text, priced per minute by the plan): `auto` (the default) when it has no usable captions, `never`, or `always`, captions or not.",
        "x-error-message": 'must be "auto", "never" or "always".',
      }),
    ),
    reuse: Type.Optional(
      Type.Boolean({
        description:
          "Whether a video's transcript that this workspace kept from an earlier job (same video, `language` and `transcribe`, within the server's retention) is used instead of reading the video again; default true. `false` reads afresh (and keeps the new transcript).",
        "x-error-message": "must be true or false.",
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The body the API reference shows and sends for "Test request": one the server accepts as it is (the
 * reference would otherwise make one up from the schema, `"videos": ["string"]`, which it refuses).
 */
export const submitBodyExample = {
  videos: ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "jNQXAC9IVRw"],
  schema: {
    template: {
      product: "The product named",
      price: { description: "Its price in US dollars", type: "number" },
    },
  },
  language: "en",
};

/** The submission as the OpenAPI document gives it: one body with `schema`, or one with `schema_id`. */
export const DocumentedSubmitBody = (() => {
  const { schema: _inline, schema_id: _saved, schema_version, ...shared } = SubmitBody.properties;
  return Type.Union(
    [
      Type.Object({ ...shared, schema: SchemaDefinition }, { additionalProperties: false }),
      Type.Object({ ...shared, schema_id: SchemaId, schema_version }, { additionalProperties: false }),
    ],
    // `required` beside the branches says the body itself is required (see http/openapi-route.ts).
    {
      description: "Exactly one of `schema` (inline) and `schema_id` (saved).",
      required: ["videos"],
      examples: [submitBodyExample],
    },
  );
})();

export const SubmitHeaders = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        "The same key and body within 24 hours answer the first response again and create nothing.",
    }),
  ),
});

export const ListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal("running"), Type.Literal("succeeded"), Type.Literal("failed")], {
        "x-error-message": 'must be "running", "succeeded" or "failed".',
      }),
    ),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        pattern: "^[A-Za-z0-9_.:-]+$",
        description:
          "The start of a job id, a video's `vid_` id or its `video_id` (a YouTube id, or `<platform>:<id>` such as `vimeo:` for every Vimeo video).",
        "x-error-message": "must be the start of an id: letters, digits, `_`, `-`, `.` and `:`, up to 256.",
      }),
    ),
    ...pageParameters,
  },
  { additionalProperties: false },
);

export const JobIdParams = Type.Object({ job_id: Type.String() });
