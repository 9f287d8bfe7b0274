// A real vidrows server on a random port over a fresh database, and a small client for it.
import { type App, type AppOptions, createApp } from "../../src/app.js";
import type { Config } from "../../src/config.js";
import { parsePlanTable } from "../../src/domain/plans.js";
import { openApiDocument } from "../../src/http/openapi-route.js";
import { type DialectName, type FreshDatabase, freshDatabase } from "./databases.js";
import { checkerFor } from "./openapi-checker.js";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, instead of `body` as JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  if (text !== "") {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Built-in plans, with limits high enough that tests not about rate limiting never meet them. */
export const testPlans = {
  free: {
    name: "Free",
    requests_per_minute: 100000,
    api_keys: 2,
    webhook_endpoints: 0,
    cycle_allowance: 100,
    videos_per_job: 10,
  },
  pro: {
    name: "Pro",
    requests_per_minute: 100000,
    api_keys: 10,
    webhook_endpoints: 10,
    cycle_allowance: 10000,
    videos_per_job: 100,
  },
  scale: {
    name: "Scale",
    requests_per_minute: 100000,
    api_keys: 100,
    webhook_endpoints: 50,
    cycle_allowance: 100000,
    videos_per_job: 1000,
  },
};

export interface TestServer {
  readonly url: string;
  readonly app: App;
  readonly database: FreshDatabase;
  /** A new workspace of its own and its first key: tests never share a workspace. */
  workspace(plan?: string): Promise<{ workspaceId: string; key: string }>;
  call(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** Numbers the workspaces tests make, since a name names one workspace. */
let workspacesMade = 0;

/** A test server's worker settings: it keeps no transcripts for reuse unless a test says so. */
const testWorker: Config["worker"] = {
  videoLeaseSeconds: 120,
  videosInFlight: 8,
  modelConcurrency: 8,
  shutdownGraceSeconds: 10,
};

/** The worker settings of a server that keeps transcripts for reuse, a day as the server's default does. */
export const workerKeepingTranscripts: Config["worker"] = { ...testWorker, transcriptRetentionHours: 24 };

export async function startTestServer(
  dialect: DialectName,
  overrides: Partial<Config> = {},
  appOptions: Partial<AppOptions> = {},
): Promise<TestServer> {
  const database = await freshDatabase(dialect);
  const config: Config = Object.freeze({
    database: database.target,
    host: "127.0.0.1",
    port: 0,
    plans: parsePlanTable(testPlans, "test plans"),
    anonymousRequestsPerMinute: 100000,
    logLevel: "silent",
    trustProxy: false,
    httpTimeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000 },
    rememberAnswers: true,
    captions: "youtube",
    model: null,
    worker: testWorker,
    webhooks: {
      allowPrivate: false,
      retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
      leaseSeconds: 60,
    },
    ...overrides,
  });
  // Quick polls and retries, so that tests of the pipeline take moments, not minutes.
  // Serving and working, like `vidrows serve`, unless the test says otherwise.
  const app = await createApp(config, {
    serve: true,
    work: true,
    ...appOptions,
    worker: { pollIntervalMs: 50, retryBaseMs: 20, ...appOptions.worker },
    extraction: { retry: { baseDelayMs: 10 }, ...appOptions.extraction } as AppOptions["extraction"],
  });
  const url = await app.start();
  const http = app.http;
  if (url === undefined || http === undefined) {
    throw new Error("A test server must serve: `serve: false` builds no HTTP server.");
  }
  return {
    url,
    app,
    database,
    async workspace(plan = "pro") {
      const created = await app.services.workspaces.create(`test-${plan}-${++workspacesMade}`, plan);
      return { workspaceId: created.workspaceId, key: created.apiKey };
    },
    // Every answer a suite receives is checked against the OpenAPI document the server serves, so
    // that each suite also tests the document (see openapi-checker.ts).
    async call(method, path, options) {
      const answer = await call(url, method, path, options);
      // The path as sent: the URL parser resolves `..` and `%2e%2e` segments before the server sees them.
      checkerFor(openApiDocument(http)).check(method, new URL(url + path).pathname, answer);
      return answer;
    },
    async close() {
      await app.stop();
      await database.drop();
    },
  };
}
