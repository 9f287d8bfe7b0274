// `/v1/schemas`: saved, versioned schemas that jobs name with `schema_id`.
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { SchemaDefinition } from "../domain/schema-definition.js";
import { callerOf } from "../access/access-control.js";
import { errorAnswers, refTo, Timestamp } from "../http/common-schemas.js";
import type { SchemaService } from "./saved-schemas.js";

const Description = Type.String({ maxLength: 280 });

// The shape a job's schema takes, named for the answers that show one. Requests carry the same shape
// inline, validated as before (the body validators know no named schemas).
const NamedSchemaDefinition = Type.Unsafe<SchemaDefinition>({ ...SchemaDefinition, $id: "SchemaDefinition" });

const SavedSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    version: Type.Integer({ minimum: 1, description: "The latest version." }),
    label: Type.String({ examples: ["products-v2"] }),
    schema: refTo(NamedSchemaDefinition),
    created_at: Timestamp,
  },
  { $id: "Schema", description: "A saved schema at its latest version." },
);

const SavedSchemaList = Type.Object({ data: Type.Array(refTo(SavedSchema)) }, { $id: "SchemaList" });

const SchemaVersion = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    label: Type.String(),
    description: Type.String(),
    schema: refTo(NamedSchemaDefinition),
    created_at: Timestamp,
  },
  { $id: "SchemaVersion" },
);

const SavedSchemaDetail = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    latest_version: Type.Integer({ minimum: 1 }),
    label: Type.String(),
    schema: refTo(NamedSchemaDefinition),
    created_at: Timestamp,
    versions: Type.Array(refTo(SchemaVersion), { description: "Every version, oldest first." }),
  },
  { $id: "SchemaDetail", description: "A saved schema with every version." },
);

const Published = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.Integer({ minimum: 1 }),
  },
  { $id: "PublishedSchema", description: "The version just published." },
);

const CreateSchemaBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: "^[a-z0-9-]+$",
      "x-error-message": "must be 1 to 64 lowercase letters, numbers and hyphens.",
    }),
    description: Type.Optional(Description),
    schema: SchemaDefinition,
  },
  { additionalProperties: false },
);

const PublishVersionBody = Type.Object(
  { schema: SchemaDefinition, description: Type.Optional(Description) },
  { additionalProperties: false },
);

const SchemaIdParams = Type.Object({ id: Type.String() });

export const schemaRoutes: FastifyPluginAsyncTypebox<{ schemas: SchemaService }> = async (
  app,
  { schemas },
) => {
  for (const schema of [
    NamedSchemaDefinition,
    SavedSchema,
    SavedSchemaList,
    SchemaVersion,
    SavedSchemaDetail,
    Published,
  ]) {
    app.addSchema(schema);
  }

  app.get(
    "/v1/schemas",
    {
      schema: {
        operationId: "listSchemas",
        summary: "List saved schemas",
        description: "Each at its latest version, newest first.",
        tags: ["Schemas"],
        response: { 200: refTo(SavedSchemaList, { description: "The saved schemas." }), ...errorAnswers() },
      },
    },
    async (request) => ({ data: await schemas.list(callerOf(request).workspaceId) }),
  );

  app.post(
    "/v1/schemas",
    {
      schema: {
        operationId: "createSchema",
        summary: "Save a schema",
        description: "Publishes version 1. 409 `schema_name_taken` if the name is in use in the workspace.",
        tags: ["Schemas"],
        body: CreateSchemaBody,
        response: {
          201: refTo(Published, { description: "Saved as version 1." }),
          ...errorAnswers({ body: true, codes: ["schema_name_taken"] }),
        },
      },
    },
    async (request, reply) => {
      const created = await schemas.create(callerOf(request).workspaceId, request.body);
      return reply.code(201).send(created);
    },
  );

  app.get(
    "/v1/schemas/:id",
    {
      schema: {
        operationId: "readSchema",
        summary: "Read a saved schema",
        description: "With `latest_version` and every version.",
        tags: ["Schemas"],
        params: SchemaIdParams,
        response: {
          200: refTo(SavedSchemaDetail, { description: "The schema and its versions." }),
          ...errorAnswers({ codes: ["schema_not_found"] }),
        },
      },
    },
    async (request) => schemas.get(callerOf(request).workspaceId, request.params.id),
  );

  app.post(
    "/v1/schemas/:id/versions",
    {
      schema: {
        operationId: "publishSchemaVersion",
        summary: "Publish a new version",
        description:
          "Earlier versions never change. Jobs submitted with this `schema_id` and no `schema_version` use the new one.",
        tags: ["Schemas"],
        params: SchemaIdParams,
        body: PublishVersionBody,
        response: {
          201: refTo(Published, { description: "The new version." }),
          ...errorAnswers({ body: true, codes: ["schema_not_found"] }),
        },
      },
    },
    async (request, reply) => {
      const published = await schemas.publishVersion(
        callerOf(request).workspaceId,
        request.params.id,
        request.body,
      );
      return reply.code(201).send(published);
    },
  );
};
