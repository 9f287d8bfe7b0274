// The one error envelope, and the answers for unknown routes, wrong methods, wrong bodies and unknown parameters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, endpoints, endpointTitle, livePath } from "../support/endpoints.js";
import { type ApiResponse, startTestServer, type TestServer } from "../support/test-server.js";

/** Exactly `{error: {code, message, param?, request_id}}`, and nothing else. */
function expectEnvelope(answer: ApiResponse, status: number, code: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(answer.body)).toEqual(["error"]);
  const keys = Object.keys(answer.body.error).sort();
  expect(["code,message,param,request_id", "code,message,request_id"]).toContain(keys.join(","));
  expect(answer.body.error.code).toBe(code);
  expect(typeof answer.body.error.message).toBe("string");
  expect(answer.body.error.message.length).toBeGreaterThan(10);
  if ("param" in answer.body.error) expect(typeof answer.body.error.param).toBe("string");
  expect(answer.body.error.request_id).toMatch(/^req_/);
  expect(answer.body.error.request_id).toBe(answer.headers.get("x-request-id"));
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`Errors on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    let key: string;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
      ({ key } = await server.workspace());
    });
    afterAll(async () => {
      await server?.close();
    });

    it("puts param in the envelope when one field is to blame", async () => {
      const answer = await server.call("POST", "/v1/keys", { key, body: { label: 7 } });
      expectEnvelope(answer, 400, "invalid_request");
      expect(answer.body.error.param).toBe("label");
    });

    describe("unknown routes", () => {
      const paths = [
        "/",
        "/v1/nothing/here",
        "/v2/keys",
        "/v1/keys/a/b/c",
        "/v1/schemas/x/versions/1",
        "/v1/usage/x",
      ];
      for (const path of paths) {
        it(`answers 404 not_found for GET ${path}, with a key or without`, async () => {
          const withKey = await server.call("GET", path, { key });
          expectEnvelope(withKey, 404, "not_found");
          expect(withKey.body.error.message).toContain("openapi.json");
          expectEnvelope(await server.call("GET", path), 404, "not_found");
        });
      }
    });

    describe("wrong methods", () => {
      const cases: [string, string, string][] = [
        ["PUT", "/v1/keys", "GET, HEAD, POST"],
        ["PATCH", "/v1/keys", "GET, HEAD, POST"],
        ["GET", "/v1/keys/key_123", "DELETE"],
        ["DELETE", "/v1/usage", "GET, HEAD, PATCH"],
        ["POST", "/v1/usage", "GET, HEAD, PATCH"],
        ["DELETE", "/v1/schemas", "GET, HEAD, POST"],
        ["DELETE", "/v1/schemas/sch_123", "GET, HEAD"],
        ["GET", "/v1/schemas/x/versions", "POST"],
        ["POST", "/v1/openapi.json", "GET, HEAD"],
      ];
      for (const [method, path, allow] of cases) {
        it(`answers ${method} ${path} with 405 method_not_allowed and Allow: ${allow}`, async () => {
          for (const options of [{ key }, {}]) {
            const answer = await server.call(method, path, options);
            expectEnvelope(answer, 405, "method_not_allowed");
            expect(answer.headers.get("allow")).toBe(allow);
            expect(answer.body.error.message).toContain(method);
          }
        });
      }
    });

    describe("request bodies", () => {
      const bodyEndpoints = endpoints.filter((e) => e.exampleBody !== undefined);
      for (const endpoint of bodyEndpoints) {
        describe(endpointTitle(endpoint), () => {
          for (const contentType of [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/xml",
            "application/json; charset=utf-16",
          ]) {
            it(`answers 415 unsupported_media_type to a body sent as ${contentType}`, async () => {
              const path = await livePath(server, key, endpoint);
              const answer = await server.call(endpoint.method, path, {
                key,
                rawBody: JSON.stringify(endpoint.exampleBody?.()),
                headers: { "content-type": contentType },
              });
              expectEnvelope(answer, 415, "unsupported_media_type");
              expect(answer.body.error.message).toContain("application/json");
            });
          }

          it("answers 415 unsupported_media_type to a compressed body", async () => {
            const path = await livePath(server, key, endpoint);
            const answer = await server.call(endpoint.method, path, {
              key,
              rawBody: JSON.stringify(endpoint.exampleBody?.()),
              headers: { "content-type": "application/json", "content-encoding": "gzip" },
            });
            expectEnvelope(answer, 415, "unsupported_media_type");
            expect(answer.body.error.message).toContain("uncompressed");
          });

          it("accepts application/json with a charset", async () => {
            const path = await livePath(server, key, endpoint);
            const answer = await server.call(endpoint.method, path, {
              key,
              rawBody: JSON.stringify(endpoint.exampleBody?.()),
              headers: { "content-type": "application/json; charset=utf-8" },
            });
            expect(answer.status, answer.text).toBe(endpoint.successStatus);
          });

          it("answers 413 payload_too_large to a body over 1 MiB", async () => {
            const path = await livePath(server, key, endpoint);
            const answer = await server.call(endpoint.method, path, {
              key,
              body: { ...endpoint.exampleBody?.(), padding: "x".repeat(1024 * 1024) },
            });
            expectEnvelope(answer, 413, "payload_too_large");
          });

          it("answers 400 invalid_request to unparseable JSON", async () => {
            const path = await livePath(server, key, endpoint);
            for (const rawBody of ["{", '{"label": }', "{'a': 1}", "nul", '{"a":1}}', "\u0000"]) {
              const answer = await server.call(endpoint.method, path, {
                key,
                rawBody,
                headers: { "content-type": "application/json" },
              });
              expectEnvelope(answer, 400, "invalid_request");
              expect(answer.body.error.message).toMatch(/JSON/);
            }
          });

          it("answers 400 to __proto__ and constructor.prototype keys, escaped or not", async () => {
            const path = await livePath(server, key, endpoint);
            const bodies = [
              '{"__proto__": {"admin": true}}',
              '{"\\u005f\\u005fproto\\u005f\\u005f": {"admin": true}}',
              '{"\\u005f_proto__": {}}',
              '{"constructor": {"prototype": {"admin": true}}}',
              '{"constructor": {"\\u0070rototype": {"admin": true}}}',
              '{"schema": {"template": {"__proto__": {"x": "y"}}}}',
            ];
            for (const rawBody of bodies) {
              const answer = await server.call(endpoint.method, path, {
                key,
                rawBody,
                headers: { "content-type": "application/json" },
              });
              expectEnvelope(answer, 400, "invalid_request");
              expect(answer.body.error.message, rawBody).toMatch(/__proto__|constructor/);
            }
            // The server's own objects are untouched.
            expect(({} as Record<string, unknown>).admin).toBeUndefined();
          });
        });
      }

      it("treats an empty body sent as application/json as no body", async () => {
        for (const rawBody of ["", "  \n"]) {
          const answer = await server.call("POST", "/v1/keys", {
            key,
            rawBody,
            headers: { "content-type": "application/json" },
          });
          expect(answer.status, answer.text).toBe(201);
          expect(answer.body.label).toBe("");
        }
      });

      it("still requires the fields of a body that has required ones when it is empty", async () => {
        const answer = await server.call("POST", "/v1/schemas", {
          key,
          rawBody: "",
          headers: { "content-type": "application/json" },
        });
        expectEnvelope(answer, 400, "invalid_request");
        expect(answer.body.error.param).toBe("name");
      });
    });

    describe("query parameters", () => {
      for (const endpoint of endpoints) {
        it(`answers 400 naming an unknown query parameter on ${endpointTitle(endpoint)}`, async () => {
          const path = await livePath(server, key, endpoint);
          const answer = await server.call(endpoint.method, `${path}?foo=1`, {
            key,
            body: endpoint.exampleBody?.(),
          });
          expectEnvelope(answer, 400, "invalid_request");
          expect(answer.body.error.param).toBe("foo");
          expect(answer.body.error.message).toContain("foo");
        });
      }

      it("answers 400 for the first unknown of several parameters, and for an empty name", async () => {
        const several = await server.call("GET", "/v1/keys?limit=1&offset=2", { key });
        expectEnvelope(several, 400, "invalid_request");
        expect(["limit", "offset"]).toContain(several.body.error.param);
        expectEnvelope(await server.call("GET", "/v1/usage?=1", { key }), 400, "invalid_request");
      });

      it("accepts a bare question mark as no query", async () => {
        expect((await server.call("GET", "/v1/keys?", { key })).status).toBe(200);
      });

      it("serves the OpenAPI document without a key but still refuses unknown parameters", async () => {
        expectEnvelope(await server.call("GET", "/v1/openapi.json?foo=1"), 400, "invalid_request");
      });
    });

    describe("malformed URLs", () => {
      const paths = [
        "/v1/keys/%",
        "/v1/keys/%zz",
        "/v1/schemas/%E0%A4%A",
        "/v1/schemas/%C0%AF",
        "/v1/%ff",
        "/v1/keys?label=%",
      ];
      for (const path of paths) {
        it(`answers ${path} with a 4xx envelope`, async () => {
          for (const method of ["GET", "DELETE", "POST"]) {
            const answer = await server.call(method, path, { key });
            expect(answer.status, `${method} ${path}: ${answer.text}`).toBeGreaterThanOrEqual(400);
            expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(500);
            expectEnvelope(answer, answer.status, answer.body.error.code);
          }
        });
      }

      it("answers bad percent-encoding in a known route's path with 400 invalid_request", async () => {
        expectEnvelope(await server.call("DELETE", "/v1/keys/%zz", { key }), 400, "invalid_request");
        expectEnvelope(await server.call("GET", "/v1/schemas/%E0%A4%A", { key }), 400, "invalid_request");
      });
    });
  });
}
