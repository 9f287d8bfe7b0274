// The committed types and error codes are the server's current ones: a route change cannot leave the client behind.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorStatuses } from "../../../src/http/api-errors.js";
import { startTestServer, type TestServer } from "../../../test/support/test-server.js";
import type { ApiErrorCode } from "../src/errors.js";
import { renderTypes } from "../scripts/render-types.mjs";

describe("generated types", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", {}, { work: false });
  });
  afterAll(() => server.close());

  it("equal what the served OpenAPI document generates (else run `npm run generate -w @vidrows/client`)", async () => {
    const document = await server.call("GET", "/v1/openapi.json");
    expect(document.status).toBe(200);
    const committed = readFileSync(new URL("../src/generated/openapi.ts", import.meta.url), "utf8");
    expect(committed).toBe(await renderTypes(document.body));
  });

  it("name exactly the server's error codes in ApiErrorCode", () => {
    // Both directions: a code the server lacks fails to compile here; a code the client lacks fails below.
    const clientCodes: Record<ApiErrorCode, true> = {
      invalid_request: true,
      unauthorized: true,
      insufficient_credits: true,
      hard_cap_reached: true,
      plan_limit: true,
      job_not_found: true,
      schema_not_found: true,
      schema_version_not_found: true,
      webhook_not_found: true,
      key_not_found: true,
      delivery_not_found: true,
      listing_not_found: true,
      upload_not_found: true,
      not_found: true,
      method_not_allowed: true,
      schema_name_taken: true,
      idempotency_conflict: true,
      job_settled: true,
      payload_too_large: true,
      unsupported_media_type: true,
      rate_limited: true,
      internal_error: true,
      extraction_unavailable: true,
      listing_unavailable: true,
      platform_unavailable: true,
      unavailable: true,
      insufficient_storage: true,
    };
    expect(Object.keys(clientCodes).sort()).toEqual(Object.keys(errorStatuses).sort());
  });
});
