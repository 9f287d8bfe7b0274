// Saved schemas: named, versioned schema definitions. A version, once published, never changes.
import { newId } from "../domain/ids.js";
import { type SchemaDefinition, schemaLabel } from "../domain/schema-definition.js";
import { formatTimestamp } from "../domain/timestamps.js";
import { ApiError } from "../http/api-errors.js";
import type { Store } from "../store/database.js";
import { isUniqueViolation } from "../store/errors.js";
import { checkSchemaColumns } from "./schema-checks.js";

export interface SchemaVersionView {
  version: number;
  label: string;
  description: string;
  schema: SchemaDefinition;
  created_at: string;
}

export interface SavedSchemaView {
  id: string;
  name: string;
  description: string;
  version: number;
  label: string;
  schema: SchemaDefinition;
  created_at: string;
}

export interface SavedSchemaDetail extends SavedSchemaView {
  latest_version: number;
  versions: SchemaVersionView[];
}

export interface PublishedVersion {
  id: string;
  name: string;
  version: number;
}

/** A saved schema's version resolved for a job: what it runs and the label it carries. */
export interface ResolvedSchema {
  label: string;
  definition: SchemaDefinition;
}

function notFound(schemaId: string): ApiError {
  return new ApiError("schema_not_found", `No schema ${schemaId} in this workspace.`, "id");
}

export class SchemaService {
  constructor(private readonly store: Store) {}

  /** Every saved schema at its latest version, newest first. */
  async list(workspaceId: string): Promise<SavedSchemaView[]> {
    const rows = await this.store.db
      .selectFrom("schemas")
      .innerJoin("schema_versions", (join) =>
        join
          .onRef("schema_versions.schema_id", "=", "schemas.id")
          .onRef("schema_versions.version", "=", "schemas.latest_version"),
      )
      .select([
        "schemas.id",
        "schemas.name",
        "schemas.latest_version",
        "schemas.created_at",
        "schema_versions.definition",
        "schema_versions.description",
      ])
      .where("schemas.workspace_id", "=", workspaceId)
      .orderBy("schemas.id", "desc")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      version: row.latest_version,
      label: schemaLabel(row.name, row.latest_version),
      schema: JSON.parse(row.definition) as SchemaDefinition,
      created_at: formatTimestamp(row.created_at),
    }));
  }

  async create(
    workspaceId: string,
    input: { name: string; description?: string; schema: SchemaDefinition },
    now = Date.now(),
  ): Promise<PublishedVersion> {
    checkSchemaColumns(input.schema);
    const id = newId("sch", now);
    try {
      await this.store.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("schemas")
          .values({ id, workspace_id: workspaceId, name: input.name, latest_version: 1, created_at: now })
          .execute();
        await trx
          .insertInto("schema_versions")
          .values({
            schema_id: id,
            version: 1,
            definition: JSON.stringify(input.schema),
            description: input.description ?? "",
            created_at: now,
          })
          .execute();
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError(
          "schema_name_taken",
          `A schema named "${input.name}" already exists in this workspace; publish a new version of it with POST /v1/schemas/{id}/versions, or pick another name.`,
          "name",
        );
      }
      throw error;
    }
    return { id, name: input.name, version: 1 };
  }

  async get(workspaceId: string, schemaId: string): Promise<SavedSchemaDetail> {
    const schema = await this.store.db
      .selectFrom("schemas")
      .selectAll()
      .where("id", "=", schemaId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (!schema) throw notFound(schemaId);
    const rows = await this.store.db
      .selectFrom("schema_versions")
      .selectAll()
      .where("schema_id", "=", schemaId)
      .orderBy("version", "asc")
      .execute();
    const versions: SchemaVersionView[] = rows.map((row) => ({
      version: row.version,
      label: schemaLabel(schema.name, row.version),
      description: row.description,
      schema: JSON.parse(row.definition) as SchemaDefinition,
      created_at: formatTimestamp(row.created_at),
    }));
    const latest = versions.find((v) => v.version === schema.latest_version);
    if (!latest) throw new Error(`Schema ${schemaId} lacks its latest version ${schema.latest_version}.`);
    return {
      id: schema.id,
      name: schema.name,
      description: latest.description,
      version: latest.version,
      latest_version: latest.version,
      label: latest.label,
      schema: latest.schema,
      created_at: formatTimestamp(schema.created_at),
      versions,
    };
  }

  /** Publishes the next version. Without a description the new version keeps the previous one's. */
  async publishVersion(
    workspaceId: string,
    schemaId: string,
    input: { schema: SchemaDefinition; description?: string },
    now = Date.now(),
  ): Promise<PublishedVersion> {
    checkSchemaColumns(input.schema);
    return this.store.db.transaction().execute(async (trx) => {
      // Bumping the counter first takes the row's write lock, so concurrent publishers get 2, 3, 4...
      const bumped = await trx
        .updateTable("schemas")
        .set((eb) => ({ latest_version: eb("latest_version", "+", 1) }))
        .where("id", "=", schemaId)
        .where("workspace_id", "=", workspaceId)
        .returning(["name", "latest_version"])
        .executeTakeFirst();
      if (!bumped) throw notFound(schemaId);
      const version = bumped.latest_version;
      let description = input.description;
      if (description === undefined) {
        const previous = await trx
          .selectFrom("schema_versions")
          .select("description")
          .where("schema_id", "=", schemaId)
          .where("version", "=", version - 1)
          .executeTakeFirstOrThrow();
        description = previous.description;
      }
      await trx
        .insertInto("schema_versions")
        .values({
          schema_id: schemaId,
          version,
          definition: JSON.stringify(input.schema),
          description,
          created_at: now,
        })
        .execute();
      return { id: schemaId, name: bumped.name, version };
    });
  }

  /** The version a job runs: the one asked for, or the latest at this moment. */
  async resolve(workspaceId: string, schemaId: string, version?: number): Promise<ResolvedSchema> {
    const schema = await this.store.db
      .selectFrom("schemas")
      .select(["name", "latest_version"])
      .where("id", "=", schemaId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    if (!schema)
      throw new ApiError("schema_not_found", `No schema ${schemaId} in this workspace.`, "schema_id");
    const wanted = version ?? schema.latest_version;
    const row = await this.store.db
      .selectFrom("schema_versions")
      .select("definition")
      .where("schema_id", "=", schemaId)
      .where("version", "=", wanted)
      .executeTakeFirst();
    if (!row) {
      throw new ApiError(
        "schema_version_not_found",
        `Schema ${schemaId} has versions 1 to ${schema.latest_version}; there is no version ${wanted}.`,
        "schema_version",
      );
    }
    return {
      label: schemaLabel(schema.name, wanted),
      definition: JSON.parse(row.definition) as SchemaDefinition,
    };
  }
}
