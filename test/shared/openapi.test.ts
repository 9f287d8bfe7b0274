// `GET /v1/openapi.json`: a structurally sound OpenAPI 3.1 document that passes `redocly lint`, and a checker
// (the one the test servers run on every answer) that refuses an answer that does not fit it.
import { fileURLToPath } from "node:url";
import { lintFromString, loadConfig } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, dialectTitle } from "../support/databases.js";
import { acceptingJobs } from "../support/endpoints.js";
import { checkerFor, type OpenApiChecker } from "../support/openapi-checker.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Json = Record<string, any>;

/** The media types an upload's body is declared as, in the order the route lists them. */
const uploadTypes = ["audio/*", "video/*", "application/octet-stream"];
const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const redoclyConfig = fileURLToPath(new URL("../../redocly.yaml", import.meta.url));

/** Every `$ref` in the document, with where it was found. */
function refsIn(value: unknown, at = "#"): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refsIn(item, `${at}/${i}`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === "$ref" && typeof v === "string" ? [[at, v] as [string, string]] : refsIn(v, `${at}/${k}`),
  );
}

function resolvePointer(document: Json, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

for (const dialect of dialects) {
  describe.skipIf(dialect.skipReason !== null)(`OpenAPI document on ${dialectTitle(dialect)}`, () => {
    let server: TestServer;
    let document: Json;
    let checker: OpenApiChecker;
    beforeAll(async () => {
      server = await startTestServer(dialect.name, acceptingJobs.config, acceptingJobs.app);
      const answer = await server.call("GET", "/v1/openapi.json");
      if (answer.status !== 200)
        throw new Error(`GET /v1/openapi.json answered ${answer.status}: ${answer.text}`);
      document = answer.body;
      checker = checkerFor(document);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("is served without a key, as JSON, with a request id and the rate-limit headers", async () => {
      const answer = await server.call("GET", "/v1/openapi.json");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
      expect(answer.headers.get("ratelimit-limit")).not.toBeNull();
      // A key, good or bad, changes nothing.
      expect(
        (await server.call("GET", "/v1/openapi.json", { key: `vr_live_${"x".repeat(32)}` })).status,
      ).toBe(200);
      const { key } = await server.workspace();
      expect((await server.call("GET", "/v1/openapi.json", { key })).body).toEqual(document);
    });

    it("is OpenAPI 3.1 with the required top-level parts", () => {
      expect(document.openapi).toMatch(/^3\.1\.\d+$/);
      expect(typeof document.info?.title).toBe("string");
      expect(typeof document.info?.version).toBe("string");
      expect(document.paths).toBeTypeOf("object");
      for (const key of Object.keys(document)) {
        expect([
          "openapi",
          "info",
          "jsonSchemaDialect",
          "servers",
          "paths",
          "webhooks",
          "components",
          "security",
          "tags",
          "externalDocs",
        ]).toContain(key);
      }
    });

    it("declares the security schemes it requires, bearer and x-api-key", () => {
      const schemes = document.components?.securitySchemes ?? {};
      for (const requirement of document.security ?? []) {
        for (const name of Object.keys(requirement)) expect(schemes).toHaveProperty(name);
      }
      const described = Object.values(schemes) as Json[];
      expect(described.some((s) => s.type === "http" && s.scheme === "bearer")).toBe(true);
      expect(described.some((s) => s.type === "apiKey" && s.in === "header" && s.name === "x-api-key")).toBe(
        true,
      );
    });

    it("is structurally sound: paths, operations, parameters, responses and references", () => {
      const operationIds = new Set<string>();
      for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
        expect(path.startsWith("/"), path).toBe(true);
        expect(path, "path templates use {name}, not :name").not.toMatch(/\/:/);
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        for (const [method, operation] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          expect(httpMethods, where).toContain(method);
          if (operation.operationId !== undefined) {
            expect(operationIds.has(operation.operationId), `${where}: duplicate operationId`).toBe(false);
            operationIds.add(operation.operationId);
          }
          const parameters = (operation.parameters ?? []) as Json[];
          const seen = new Set<string>();
          for (const parameter of parameters) {
            expect(["query", "header", "path", "cookie"], where).toContain(parameter.in);
            expect(typeof parameter.name, where).toBe("string");
            expect(seen.has(`${parameter.in}:${parameter.name}`), `${where}: parameter twice`).toBe(false);
            seen.add(`${parameter.in}:${parameter.name}`);
            if (parameter.in === "path") {
              expect(parameter.required, `${where} ${parameter.name}`).toBe(true);
              expect(templated, `${where}: ${parameter.name} is not in the path`).toContain(parameter.name);
            }
            if (parameter.schema?.default !== undefined)
              expect(parameter.required, `${where} ${parameter.name}`).not.toBe(true);
          }
          for (const name of templated) {
            expect(
              parameters.some((p) => p.in === "path" && p.name === name),
              `${where}: {${name}} is not declared`,
            ).toBe(true);
          }
          const responses = Object.entries(operation.responses ?? {}) as [string, Json][];
          expect(responses.length, where).toBeGreaterThan(0);
          for (const [status, response] of responses) {
            expect(status, where).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
            expect(typeof response.description, `${where} ${status}`).toBe("string");
            expect(response.description, `${where} ${status}`).not.toBe("Default Response");
          }
          if (operation.requestBody) {
            // Every body is JSON but an upload's, which is the file itself.
            const types = operation.operationId === "createUpload" ? uploadTypes : ["application/json"];
            expect(Object.keys(operation.requestBody.content ?? {}), where).toEqual(types);
          }
        }
      }
      for (const [at, ref] of refsIn(document)) {
        expect(resolvePointer(document, ref), `${at} -> ${ref}`).toBeDefined();
      }
    });

    it("has schemas that compile as JSON Schema 2020-12, their references resolved in the document", () => {
      for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
        for (const [method, operation] of Object.entries(item)) {
          const schemas: [string, unknown][] = [];
          for (const parameter of operation.parameters ?? [])
            schemas.push([`parameter ${parameter.name}`, parameter.schema]);
          const body = operation.requestBody?.content?.["application/json"]?.schema;
          if (body) schemas.push(["request body", body]);
          for (const [status, response] of Object.entries(operation.responses ?? {}) as [string, Json][]) {
            const schema = response.content?.["application/json"]?.schema;
            if (schema) schemas.push([`response ${status}`, schema]);
          }
          for (const [what, schema] of schemas) {
            expect(() => checker.compile(schema), `${method.toUpperCase()} ${path} ${what}`).not.toThrow();
          }
        }
      }
    });

    it("serves every route it documents", async () => {
      const { key } = await server.workspace();
      for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
        for (const method of Object.keys(item)) {
          const concrete = path.replace(/\{[^}]+\}/g, "doesnotexist");
          const answer = await server.call(method.toUpperCase(), concrete, { key });
          // Anything but "no such endpoint": the route exists.
          expect(
            [404, 405].includes(answer.status) &&
              ["not_found", "method_not_allowed"].includes(answer.body?.error?.code),
            `${method} ${path}`,
          ).toBe(false);
        }
      }
    });

    it("passes redocly lint with the recommended rules: no error, no warning", async () => {
      const config = await loadConfig({ configPath: redoclyConfig });
      const problems = await lintFromString({
        source: JSON.stringify(document),
        absoluteRef: "openapi.json",
        config,
      });
      const shown = problems.map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
      );
      expect(shown).toEqual([]);
    });

    it("has no unused component but the 405 answer no operation can name (see redocly.yaml)", () => {
      const referenced = new Set(refsIn(document).map(([, ref]) => ref));
      const unused: string[] = [];
      for (const [kind, named] of Object.entries(document.components as Record<string, Json>)) {
        if (kind === "securitySchemes") continue;
        for (const name of Object.keys(named)) {
          if (!referenced.has(`#/components/${kind}/${name}`)) unused.push(`${kind}/${name}`);
        }
      }
      expect(unused).toEqual(["responses/MethodNotAllowed"]);
    });

    describe("the checker the test servers run on every answer", () => {
      const fits = () => ({
        status: 200,
        headers: new Headers({
          "content-type": "application/json; charset=utf-8",
          "x-request-id": "req_1",
          "ratelimit-limit": "600",
          "ratelimit-remaining": "599",
          "ratelimit-reset": "60",
        }),
        body: { data: [] },
        text: '{"data":[]}',
      });

      it("passes an answer that fits", () => {
        expect(checker.problems("GET", "/v1/keys", fits())).toEqual([]);
      });

      it("refuses a body that does not fit the operation's schema", () => {
        const answer = { ...fits(), body: { data: [{ id: "key_1" }] }, text: '{"data":[{"id":"key_1"}]}' };
        expect(checker.problems("GET", "/v1/keys", answer).join("\n")).toMatch(/body does not fit/);
        expect(() => checker.check("GET", "/v1/keys", answer)).toThrow(/does not fit the OpenAPI document/);
      });

      it("refuses a status the operation does not declare, and an operation the document does not have", () => {
        expect(checker.problems("GET", "/v1/keys", { ...fits(), status: 418 }).join()).toMatch(
          /no such status/,
        );
        expect(checker.problems("PUT", "/v1/keys", fits()).join()).toMatch(/no operation/);
      });

      it("refuses a missing required header and a header of the wrong type", () => {
        const missing = fits();
        missing.headers.delete("x-request-id");
        expect(checker.problems("GET", "/v1/keys", missing).join()).toMatch(/x-request-id is required/);
        const wrong = fits();
        wrong.headers.set("ratelimit-remaining", "many");
        expect(checker.problems("GET", "/v1/keys", wrong).join()).toMatch(/RateLimit-Remaining/);
      });

      it("refuses an error whose code its status does not carry", () => {
        const answer = {
          ...fits(),
          status: 404,
          body: { error: { code: "schema_not_found", message: "m", request_id: "req_1" } },
        };
        answer.text = JSON.stringify(answer.body);
        expect(checker.problems("GET", "/v1/{job_id}".replace("{job_id}", "job_1"), answer).join()).toMatch(
          /body does not fit/,
        );
      });
    });
  });
}
