// Each endpoint in the OpenAPI document: documented as it behaves, its live answers and request bodies matching.
import type { ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs, endpoints, endpointTitle, livePath, pathParameters } from "../support/endpoints.js";
import { checkerFor, type OpenApiChecker } from "../support/openapi-checker.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Json = Record<string, any>;

/** Every object schema in a schema tree (through properties, items, unions), for rules that apply to each. */
function objectSchemas(schema: unknown): Json[] {
  if (schema === null || typeof schema !== "object") return [];
  const s = schema as Json;
  const found: Json[] = s.type === "object" ? [s] : [];
  for (const child of Object.values(s.properties ?? {})) found.push(...objectSchemas(child));
  for (const key of ["anyOf", "oneOf", "allOf"])
    for (const child of s[key] ?? []) found.push(...objectSchemas(child));
  if (s.items) found.push(...objectSchemas(s.items));
  return found;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`OpenAPI endpoints on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    let document: Json;
    let checker: OpenApiChecker;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
      document = (await server.call("GET", "/v1/openapi.json")).body;
      checker = checkerFor(document);
    });
    afterAll(async () => {
      await server?.close();
    });

    for (const endpoint of endpoints) {
      describe(endpointTitle(endpoint), () => {
        const operation = () => document.paths?.[endpoint.path]?.[endpoint.method.toLowerCase()] as Json;

        it("is documented, with an operationId, a summary, tags and the error envelope per status", () => {
          expect(operation(), `${endpointTitle(endpoint)} is missing from the document`).toBeDefined();
          expect(operation().operationId).toMatch(/^[a-z][A-Za-z]+$/);
          expect(typeof operation().summary).toBe("string");
          expect(operation().tags?.length).toBeGreaterThan(0);
          const errorStatuses = Object.keys(operation().responses).filter((status) => status >= "400");
          // Every route can answer these; none is declared as a range.
          expect(errorStatuses).toEqual(expect.arrayContaining(["400", "401", "429", "500", "503"]));
          for (const status of errorStatuses) {
            const schema = operation().responses[status].content?.["application/json"]?.schema;
            expect(schema?.allOf?.[0], status).toEqual({ $ref: "#/components/schemas/Error" });
            expect(
              schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum?.length,
              status,
            ).toBeGreaterThan(0);
          }
        });

        it(`documents its ${endpoint.successStatus} answer, and the live answer matches it`, async () => {
          const response = operation().responses?.[String(endpoint.successStatus)];
          expect(response, `no ${endpoint.successStatus} response`).toBeDefined();
          const { key } = await server.workspace();
          const path = await livePath(server, key, endpoint);
          const answer = await server.call(endpoint.method, path, { key, body: endpoint.exampleBody?.() });
          expect(answer.status, answer.text).toBe(endpoint.successStatus);
          if (endpoint.successStatus === 204) {
            expect(response.content).toBeUndefined();
            expect(answer.text).toBe("");
            return;
          }
          expect(response.content?.["application/json"]?.schema, "no response schema").toBeDefined();
          expect(checker.problems(endpoint.method, path, answer)).toEqual([]);
        });

        it("documents its path parameters and no query parameters it does not take", () => {
          const parameters = (operation().parameters ?? []) as Json[];
          const inPath = parameters.filter((p) => p.in === "path").map((p) => p.name);
          expect(inPath).toEqual(pathParameters(endpoint));
          expect(parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual(endpoint.query ?? []);
        });

        if (endpoint.exampleBody) {
          describe("request body", () => {
            let validate: ValidateFunction;
            beforeAll(() => {
              const body = operation()?.requestBody;
              validate = checker.compile(body?.content?.["application/json"]?.schema ?? {});
            });

            it("is documented as a closed object, or a choice of closed objects", () => {
              const body = operation().requestBody;
              expect(body, "no requestBody").toBeDefined();
              const schema = body.content["application/json"].schema;
              for (const branch of (schema.oneOf ?? schema.anyOf ?? [schema]) as any[]) {
                expect(branch.type).toBe("object");
                expect(branch.additionalProperties).toBe(false);
              }
              // Nested objects the client writes are closed too (a template's column map is the one open map).
              for (const nested of objectSchemas(schema)) {
                if (nested.additionalProperties === undefined || nested.additionalProperties === true) {
                  throw new Error(`an open object in the body: ${JSON.stringify(nested).slice(0, 200)}`);
                }
              }
            });

            it("accepts the example body and refuses an unknown field, as the server does", async () => {
              expect(validate(endpoint.exampleBody?.()), JSON.stringify(validate.errors)).toBe(true);
              expect(validate({ ...endpoint.exampleBody?.(), unknown_field: 1 })).toBe(false);
              const { key } = await server.workspace();
              const path = await livePath(server, key, endpoint);
              const answer = await server.call(endpoint.method, path, {
                key,
                body: { ...endpoint.exampleBody?.(), unknown_field: 1 },
              });
              expect(answer.status).toBe(400);
              expect(answer.body.error.param).toBe("unknown_field");
            });

            it("is marked required exactly when the server refuses an empty body", async () => {
              const { key } = await server.workspace();
              const path = await livePath(server, key, endpoint);
              const answer = await server.call(endpoint.method, path, {
                key,
                rawBody: "",
                headers: { "content-type": "application/json" },
              });
              expect(answer.status === 400).toBe(operation().requestBody.required === true);
            });
          });
        } else {
          it("documents no request body", () => {
            expect(operation().requestBody).toBeUndefined();
          });
        }
      });
    }
  });
}
