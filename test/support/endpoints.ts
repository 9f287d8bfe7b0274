// Every endpoint built so far, with a body it accepts, so that shared suites (auth, errors, hostile input) loop over all of them.
import { randomBytes } from "node:crypto";
import type { TestServer } from "./test-server.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface Endpoint {
  readonly method: HttpMethod;
  /** As the OpenAPI document writes it: `/v1/schemas/{id}`. */
  readonly path: string;
  /** The status of a successful answer. */
  readonly successStatus: number;
  /** A fresh body the endpoint accepts (unique names, so it can be sent twice); absent when it reads none. */
  readonly exampleBody?: () => Record<string, unknown>;
  /** What `{id}` in the path names, so that a test can make one to point at. */
  readonly idOf?: "key" | "schema";
}

/** A schema name no other test uses, so that creating it twice in a workspace never collides. */
export function uniqueSchemaName(): string {
  return `s-${randomBytes(6).toString("hex")}`;
}

export const endpoints: readonly Endpoint[] = [
  { method: "GET", path: "/v1/keys", successStatus: 200 },
  {
    method: "POST",
    path: "/v1/keys",
    successStatus: 201,
    exampleBody: () => ({ label: "ci", note: "for the build", environment: "test" }),
  },
  { method: "DELETE", path: "/v1/keys/{id}", successStatus: 204, idOf: "key" },
  { method: "GET", path: "/v1/schemas", successStatus: 200 },
  {
    method: "POST",
    path: "/v1/schemas",
    successStatus: 201,
    exampleBody: () => ({
      name: uniqueSchemaName(),
      description: "Products and their prices.",
      schema: { columns: ["product", "price"] },
    }),
  },
  { method: "GET", path: "/v1/schemas/{id}", successStatus: 200, idOf: "schema" },
  {
    method: "POST",
    path: "/v1/schemas/{id}/versions",
    successStatus: 201,
    idOf: "schema",
    exampleBody: () => ({
      schema: { template: { product: "The product's name", price: "Its price, with the currency" } },
      description: "Adds descriptions.",
    }),
  },
  { method: "GET", path: "/v1/usage", successStatus: 200 },
  { method: "PATCH", path: "/v1/usage", successStatus: 200, exampleBody: () => ({ hard_cap: 500 }) },
];

export function endpointTitle(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/** The path with `{id}` replaced (encoded as a path segment). */
export function pathWithId(endpoint: Endpoint, id: string): string {
  return endpoint.path.replace("{id}", encodeURIComponent(id));
}

/** A well-formed id of the right kind that names nothing, for tests that never reach the route. */
export function placeholderPath(endpoint: Endpoint): string {
  return pathWithId(endpoint, endpoint.idOf === "key" ? "key_doesnotexist" : "sch_doesnotexist");
}

/** The path pointing at a real resource of the key's workspace, made for the purpose. */
export async function livePath(server: TestServer, key: string, endpoint: Endpoint): Promise<string> {
  if (endpoint.idOf === undefined) return endpoint.path;
  if (endpoint.idOf === "key") {
    const created = await server.call("POST", "/v1/keys", { key, body: { label: "to revoke" } });
    if (created.status !== 201) throw new Error(`could not create a key: ${created.text}`);
    return pathWithId(endpoint, created.body.id);
  }
  const created = await server.call("POST", "/v1/schemas", {
    key,
    body: { name: uniqueSchemaName(), schema: { columns: ["a"] } },
  });
  if (created.status !== 201) throw new Error(`could not create a schema: ${created.text}`);
  return pathWithId(endpoint, created.body.id);
}
