// Every endpoint built so far, with a body it accepts, so that shared suites (auth, errors, hostile input) loop over all of them.
import { randomBytes } from "node:crypto";
import type { AppOptions } from "../../src/app.js";
import type { Config } from "../../src/config.js";
import { newId } from "../../src/domain/ids.js";
import { recordJobEvents } from "../../src/webhooks/outbox.js";
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
  /**
   * What the path's first parameter (`{id}`, `{job_id}`) names, so that a test can make one to point at.
   * `delivery`: a webhook endpoint (`{id}`) and one of its deliveries (`{delivery_id}`).
   */
  readonly idOf?: "key" | "schema" | "job" | "webhook" | "delivery";
  /** The query parameters it takes; none when absent. */
  readonly query?: readonly string[];
}

/**
 * Settings for a shared suite's server, so that `POST /v1` reaches its 202: a language model is named
 * (so submissions are accepted) but no worker runs, so nothing ever calls it or fetches captions.
 */
export const acceptingJobs: { config: Partial<Config>; app: Partial<AppOptions> } = {
  config: { model: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "never-used", model: "none" } },
  app: { work: false },
};

/** A job body the jobs endpoint accepts: one bare video id and an inline schema. */
export function exampleJobBody(): Record<string, unknown> {
  return { videos: ["dQw4w9WgXcQ"], schema: { columns: ["product", "price"] } };
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
  { method: "POST", path: "/v1", successStatus: 202, exampleBody: exampleJobBody },
  { method: "GET", path: "/v1", successStatus: 200, query: ["status", "search", "limit", "offset"] },
  { method: "GET", path: "/v1/{job_id}", successStatus: 200, idOf: "job" },
  { method: "GET", path: "/v1/{job_id}/videos", successStatus: 200, idOf: "job" },
  { method: "GET", path: "/v1/webhooks", successStatus: 200 },
  {
    method: "POST",
    path: "/v1/webhooks",
    successStatus: 201,
    exampleBody: () => ({
      url: "https://hooks.example.com/vidrows",
      events: ["job.completed", "job.failed"],
    }),
  },
  {
    method: "PATCH",
    path: "/v1/webhooks/{id}",
    successStatus: 200,
    idOf: "webhook",
    exampleBody: () => ({ disabled: true }),
  },
  { method: "DELETE", path: "/v1/webhooks/{id}", successStatus: 204, idOf: "webhook" },
  {
    method: "GET",
    path: "/v1/webhooks/{id}/deliveries",
    successStatus: 200,
    idOf: "webhook",
    query: ["limit", "offset"],
  },
  {
    method: "POST",
    path: "/v1/webhooks/{id}/deliveries/{delivery_id}/resend",
    successStatus: 202,
    idOf: "delivery",
  },
];

/** The names of the path's parameters, as the OpenAPI document declares them. */
export function pathParameters(endpoint: Endpoint): string[] {
  return [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
}

export function endpointTitle(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/**
 * The path with its first parameter (`{id}`, `{job_id}`) replaced (encoded as a path segment), and
 * any further one (`{delivery_id}`) by `rest`.
 */
export function pathWithId(endpoint: Endpoint, id: string, rest = "dlv_doesnotexist"): string {
  return endpoint.path
    .replace(/\{[^}]+\}/, encodeURIComponent(id))
    .replace(/\{[^}]+\}/g, encodeURIComponent(rest));
}

/** A well-formed id of the right kind that names nothing, for tests that never reach the route. */
export function placeholderPath(endpoint: Endpoint): string {
  const placeholders = {
    key: "key_doesnotexist",
    schema: "sch_doesnotexist",
    job: "job_doesnotexist",
    webhook: "wh_doesnotexist",
    delivery: "wh_doesnotexist",
  };
  return pathWithId(endpoint, placeholders[endpoint.idOf ?? "schema"]);
}

/**
 * Suites create webhook endpoints by the dozen in one workspace; past a few, the oldest are removed
 * so that the plan's endpoint count never refuses the next one (each path is used at once, then left).
 */
async function makeWebhookRoom(server: TestServer, key: string): Promise<void> {
  const listed = await server.call("GET", "/v1/webhooks", { key });
  if (listed.status !== 200) throw new Error(`could not list webhooks: ${listed.text}`);
  for (const endpoint of (listed.body.data as { id: string }[]).slice(4)) {
    const removed = await server.call("DELETE", `/v1/webhooks/${endpoint.id}`, { key });
    if (removed.status !== 204) throw new Error(`could not remove a webhook: ${removed.text}`);
  }
}

async function createWebhook(server: TestServer, key: string): Promise<string> {
  await makeWebhookRoom(server, key);
  const created = await server.call("POST", "/v1/webhooks", {
    key,
    body: { url: "https://hooks.example.com/made-for-a-test" },
  });
  if (created.status !== 201) throw new Error(`could not create a webhook: ${created.text}`);
  return created.body.id;
}

/**
 * A delivery to the endpoint: the outbox records a job's events as settlement does (no worker runs
 * in the shared suites, so no job settles for real), and the endpoint gets its deliveries.
 */
async function createDelivery(server: TestServer, endpointId: string): Promise<string> {
  const db = server.app.store.db;
  const { workspace_id } = await db
    .selectFrom("webhook_endpoints")
    .select("workspace_id")
    .where("id", "=", endpointId)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  await db.transaction().execute((trx) =>
    recordJobEvents(
      server.app.store,
      trx,
      [
        {
          jobId: newId("job", now),
          workspaceId: workspace_id,
          status: "done",
          videos: 1,
          schema: "inline",
          creditsCharged: 1,
          counts: { queued: 0, processing: 0, done: 1, failed: 0 },
          completedAt: now,
        },
      ],
      now,
    ),
  );
  const delivery = await db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("endpoint_id", "=", endpointId)
    .executeTakeFirstOrThrow();
  return delivery.id;
}

/** The path pointing at a real resource of the key's workspace, made for the purpose. */
export async function livePath(server: TestServer, key: string, endpoint: Endpoint): Promise<string> {
  if (endpoint.path === "/v1/webhooks") await makeWebhookRoom(server, key);
  if (endpoint.idOf === undefined) return endpoint.path;
  if (endpoint.idOf === "webhook") return pathWithId(endpoint, await createWebhook(server, key));
  if (endpoint.idOf === "delivery") {
    const endpointId = await createWebhook(server, key);
    return pathWithId(endpoint, endpointId, await createDelivery(server, endpointId));
  }
  if (endpoint.idOf === "key") {
    const created = await server.call("POST", "/v1/keys", { key, body: { label: "to revoke" } });
    if (created.status !== 201) throw new Error(`could not create a key: ${created.text}`);
    return pathWithId(endpoint, created.body.id);
  }
  if (endpoint.idOf === "job") {
    const created = await server.call("POST", "/v1", { key, body: exampleJobBody() });
    if (created.status !== 202) throw new Error(`could not submit a job: ${created.text}`);
    return pathWithId(endpoint, created.body.job_id);
  }
  const created = await server.call("POST", "/v1/schemas", {
    key,
    body: { name: uniqueSchemaName(), schema: { columns: ["a"] } },
  });
  if (created.status !== 201) throw new Error(`could not create a schema: ${created.text}`);
  return pathWithId(endpoint, created.body.id);
}
