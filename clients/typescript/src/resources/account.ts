// vr.usage, vr.schemas and vr.keys: the workspace's usage and hard cap, saved schemas, and API keys.
import type {
  ApiKeyList,
  CreateKeyBody,
  CreateSchemaBody,
  CreatedKey,
  PublishVersionBody,
  SavedSchemaDetail,
  SchemaList,
  SchemaPublished,
  Usage,
} from "../api-types.js";
import type { RequestOptions, Transport } from "../transport.js";

const id = (value: string) => encodeURIComponent(value);

export class UsageResource {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/usage`: credits, cycle, plan and job figures. */
  get(options: RequestOptions = {}): Promise<Usage> {
    return this.transport.send({ method: "GET", path: "/v1/usage", retry: "repeatable", ...options });
  }

  /** `PATCH /v1/usage`: caps the credits used in a cycle; null removes the cap. */
  setHardCap(hardCap: number | null, options: RequestOptions = {}): Promise<Usage> {
    return this.transport.send({
      method: "PATCH",
      path: "/v1/usage",
      body: { hard_cap: hardCap },
      retry: "repeatable",
      ...options,
    });
  }
}

export class Schemas {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/schemas`: each saved schema at its latest version. */
  list(options: RequestOptions = {}): Promise<SchemaList> {
    return this.transport.send({ method: "GET", path: "/v1/schemas", retry: "repeatable", ...options });
  }

  /** `POST /v1/schemas`: saves version 1. */
  create(body: CreateSchemaBody, options: RequestOptions = {}): Promise<SchemaPublished> {
    return this.transport.send({ method: "POST", path: "/v1/schemas", body, retry: "once", ...options });
  }

  /** `GET /v1/schemas/{id}`: with `latest_version` and every version. */
  get(schemaId: string, options: RequestOptions = {}): Promise<SavedSchemaDetail> {
    return this.transport.send({
      method: "GET",
      path: `/v1/schemas/${id(schemaId)}`,
      retry: "repeatable",
      ...options,
    });
  }

  /** `POST /v1/schemas/{id}/versions`: publishes a new version; earlier ones never change. */
  publishVersion(
    schemaId: string,
    body: PublishVersionBody,
    options: RequestOptions = {},
  ): Promise<SchemaPublished> {
    return this.transport.send({
      method: "POST",
      path: `/v1/schemas/${id(schemaId)}/versions`,
      body,
      retry: "once",
      ...options,
    });
  }
}

export class Keys {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/keys`: every key, revoked ones included; full keys are never listed. */
  list(options: RequestOptions = {}): Promise<ApiKeyList> {
    return this.transport.send({ method: "GET", path: "/v1/keys", retry: "repeatable", ...options });
  }

  /** `POST /v1/keys`: the full `key` is in this answer only. */
  create(body: CreateKeyBody = {}, options: RequestOptions = {}): Promise<CreatedKey> {
    return this.transport.send({ method: "POST", path: "/v1/keys", body, retry: "once", ...options });
  }

  /** `DELETE /v1/keys/{id}`: immediate and final; revoking a revoked key succeeds again. */
  async revoke(keyId: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.send({
      method: "DELETE",
      path: `/v1/keys/${id(keyId)}`,
      retry: "repeatable",
      ...options,
    });
  }
}
