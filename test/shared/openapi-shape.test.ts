// What generated clients rely on in the OpenAPI document: operationIds, named schemas, declared statuses and headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects } from "../support/databases.js";
import { videoFailureCodes } from "../../src/domain/video-failure-codes.js";
import { acceptingJobs } from "../support/endpoints.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Json = Record<string, any>;

/** The operationIds a generated client names its calls by: changing one breaks clients. */
const operationIds = {
  "GET /v1/openapi.json": "getOpenApiDocument",
  "POST /v1": "submitJob",
  "GET /v1": "listJobs",
  "HEAD /v1/{job_id}": "checkJob",
  "GET /v1/{job_id}": "readJob",
  "GET /v1/{job_id}/videos": "listJobVideos",
  "POST /v1/{job_id}/cancel": "cancelJob",
  "GET /v1/usage": "getUsage",
  "PATCH /v1/usage": "updateUsage",
  "GET /v1/keys": "listKeys",
  "POST /v1/keys": "createKey",
  "DELETE /v1/keys/{id}": "revokeKey",
  "GET /v1/schemas": "listSchemas",
  "POST /v1/schemas": "createSchema",
  "GET /v1/schemas/{id}": "readSchema",
  "POST /v1/schemas/{id}/versions": "publishSchemaVersion",
  "GET /v1/webhooks": "listWebhooks",
  "POST /v1/webhooks": "createWebhook",
  "PATCH /v1/webhooks/{id}": "updateWebhook",
  "DELETE /v1/webhooks/{id}": "deleteWebhook",
  "GET /v1/webhooks/{id}/deliveries": "listWebhookDeliveries",
  "POST /v1/webhooks/{id}/deliveries/{delivery_id}/resend": "resendWebhookDelivery",
  "GET /v1/videos": "listVideos",
  "POST /v1/uploads": "createUpload",
  "GET /v1/uploads": "listUploads",
  "DELETE /v1/uploads/{upload_id}": "deleteUpload",
};

/** The status each operation declares beyond its success: what each route can answer. */
const extraErrorStatuses: Record<string, string[]> = {
  submitJob: ["402", "403", "404", "409", "413", "415"],
  checkJob: ["404"],
  readJob: ["404"],
  listJobVideos: ["404"],
  cancelJob: ["404", "409"],
  updateUsage: ["413", "415"],
  createKey: ["403", "413", "415"],
  revokeKey: ["404", "413", "415"],
  createSchema: ["409", "413", "415"],
  readSchema: ["404"],
  publishSchemaVersion: ["404", "413", "415"],
  createWebhook: ["403", "413", "415"],
  updateWebhook: ["404", "413", "415"],
  deleteWebhook: ["404", "413", "415"],
  listWebhookDeliveries: ["404"],
  resendWebhookDelivery: ["404", "413", "415"],
  listVideos: ["404"],
  createUpload: ["403", "413", "415", "507"],
  deleteUpload: ["404", "413", "415"],
};

const dialect = dialects[0]!;

describe("The OpenAPI document, as generators read it", () => {
  let server: TestServer;
  let document: Json;
  const operations = (): [string, Json][] =>
    Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]): [string, Json] => [
        `${method.toUpperCase()} ${path}`,
        operation,
      ]),
    );
  const byId = (id: string) =>
    operations().find(([, operation]) => operation.operationId === id)?.[1] as Json;

  beforeAll(async () => {
    server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
    document = (await server.call("GET", "/v1/openapi.json")).body;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("names every operation, with the operationIds clients use", () => {
    expect(Object.fromEntries(operations().map(([at, operation]) => [at, operation.operationId]))).toEqual(
      operationIds,
    );
  });

  it("declares itself as a public operation, so no path template claims it", () => {
    const operation = document.paths["/v1/openapi.json"]?.get;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses)).not.toContain("401");
  });

  it("names the shared answers under components.schemas and refers to them", () => {
    const names = Object.keys(document.components.schemas);
    for (const name of [
      "Error",
      "Pagination",
      "Job",
      "RunningJob",
      "SettledJob",
      "JobCreated",
      "JobSummary",
      "JobList",
      "VideoResult",
      "DoneVideo",
      "FailedVideo",
      "JobVideoList",
      "VideoProgress",
      "Usage",
      "ApiKey",
      "ApiKeyList",
      "CreatedApiKey",
      "Schema",
      "SchemaList",
      "SchemaDetail",
      "SchemaDefinition",
      "WebhookEndpoint",
      "WebhookEndpointList",
      "CreatedWebhookEndpoint",
      "DeliveryAttemptList",
    ]) {
      expect(names).toContain(name);
    }
    expect(document.info.description).toContain("`Error`");
    expect(byId("readJob").responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Job",
    });
    // No anonymous `def-N` names, and no copy of the error envelope outside its component.
    expect(names.filter((name) => /^def-\d+$/.test(name))).toEqual([]);
    expect(JSON.stringify(document.paths)).not.toContain('"request_id"');
  });

  it("lists every error code in Error, and declares each status per operation with the codes it carries", () => {
    const codes = document.components.schemas.Error.properties.error.properties.code.enum;
    expect(codes).toEqual(expect.arrayContaining(["invalid_request", "job_not_found", "rate_limited"]));
    for (const [at, operation] of operations()) {
      const statuses = Object.keys(operation.responses).filter((status) => status >= "400");
      const expected = ["400", "429", "500", "503", ...(extraErrorStatuses[operation.operationId] ?? [])];
      if (operation.operationId !== "getOpenApiDocument") expected.push("401");
      expect(statuses.sort(), at).toEqual([...new Set(expected)].sort());
      expect(
        statuses.some((status) => status.endsWith("XX")),
        at,
      ).toBe(false);
    }
    const notFound = byId("resendWebhookDelivery").responses["404"].content["application/json"].schema;
    expect(notFound.allOf[1].properties.error.properties.code.enum).toEqual([
      "webhook_not_found",
      "delivery_not_found",
    ]);
  });

  it("declares the headers every answer carries, from components.headers", () => {
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const [at, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        expect(response.headers["x-request-id"], `${at} ${status}`).toEqual(ref("RequestId"));
        if (!["400", "401", "500", "503"].includes(status)) {
          expect(response.headers["RateLimit-Remaining"], `${at} ${status}`).toEqual(
            ref("RateLimitRemaining"),
          );
        }
      }
      expect(operation.responses["429"].headers["Retry-After"], at).toEqual(ref("RetryAfter"));
    }
    expect(byId("submitJob").responses["202"].headers["Idempotent-Replayed"]).toEqual(
      ref("IdempotentReplayed"),
    );
    expect(document.components.responses.MethodNotAllowed.headers.Allow).toEqual(ref("Allow"));
    expect(Object.keys(document.components.headers).sort()).toEqual([
      "Allow",
      "IdempotentReplayed",
      "RateLimitLimit",
      "RateLimitRemaining",
      "RateLimitReset",
      "RequestId",
      "RetryAfter",
    ]);
  });

  it("names a server, relative to where the document is served", () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: "/" })]);
  });

  it("documents the submit body as one with `schema` or one with `schema_id`, each closed", () => {
    const body = byId("submitJob").requestBody.content["application/json"].schema;
    const branches = (body.oneOf ?? body.anyOf) as Json[];
    expect(branches.map((branch) => [...branch.required].sort())).toEqual([
      ["schema", "videos"],
      ["schema_id", "videos"],
    ]);
    for (const branch of branches) expect(branch.additionalProperties).toBe(false);
    expect(Object.keys(branches[0]!.properties)).not.toContain("schema_id");
    expect(Object.keys(branches[1]!.properties)).not.toContain("schema");
    expect(Object.keys(branches[1]!.properties)).toContain("schema_version");
  });

  it("documents transcript reuse: `reuse` in both submit bodies, optional, and where a done video's words came from", () => {
    const body = byId("submitJob").requestBody.content["application/json"].schema;
    for (const branch of (body.oneOf ?? body.anyOf) as Json[]) {
      expect(branch.properties.reuse.type).toBe("boolean");
      expect(branch.required).not.toContain("reuse");
    }
    const transcript = document.components.schemas.DoneVideoProgress.properties.transcript;
    const values = (transcript.anyOf as Json[]).map((schema) => schema.const ?? schema.enum?.[0] ?? null);
    expect(values).toEqual(["captions", "transcription", "reused", null]);
    expect(document.components.schemas.DoneVideoProgress.required).toContain("transcript");
  });

  it("lists the per-video error codes as an enum", () => {
    expect(document.components.schemas.VideoError.properties.code.enum).toEqual([...videoFailureCodes]);
  });

  it("types a failed video's credits_charged as the integer 0", () => {
    const charged = document.components.schemas.FailedVideo.properties.credits_charged;
    expect(charged.type).toBe("integer");
    expect(charged.const ?? charged.enum?.[0]).toBe(0);
  });

  it("writes each field that can be null as a union with null, so generated types say `T | null`", () => {
    const nullable = (schema: Json) =>
      schema.anyOf?.some((s: Json) => s.type === "null") || schema.type === "null";
    const { schemas } = document.components;
    expect(nullable(schemas.RunningJob.properties.results)).toBe(true);
    expect(nullable(schemas.FailedVideo.properties.rows)).toBe(true);
    expect(nullable(schemas.DoneVideo.properties.rows)).toBe(true);
    expect(nullable(schemas.JobSummary.properties.completed_at)).toBe(true);
    expect(nullable(schemas.JobSummary.properties.handed_over_at)).toBe(true);
    expect(nullable(schemas.JobVideoList.properties.handed_over_at)).toBe(true);
    expect(nullable(schemas.WaitingVideoProgress.properties.id)).toBe(true);
    expect(nullable(schemas.ApiKey.properties.last_used_at)).toBe(true);
    expect(nullable(schemas.Usage.properties.credits.properties.hard_cap)).toBe(true);
    // Every property named as nullable is required: present, with null, not left out.
    const named = ["RunningJob", "FailedVideo", "DoneVideo", "JobSummary", "ApiKey"];
    for (const name of [...named, "JobVideoList", "WaitingVideoProgress"]) {
      for (const [field, schema] of Object.entries(schemas[name].properties as Record<string, Json>)) {
        if (nullable(schema)) expect(schemas[name].required, `${name}.${field}`).toContain(field);
      }
    }
  });
});
