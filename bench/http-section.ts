// Issue 5 item 1: each endpoint of the real server under load, against the bare framework under the same load.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BenchDialect, freshDatabase, settleStatistics } from "./databases.js";
import { type LoadSpec, type MeasuredLoad, measureLoad } from "./load.js";
import { log, timed } from "./log.js";
import type { BenchOptions } from "./options.js";
import { type ServerChild, startBareServer, startVidrowsServer } from "./processes.js";
import { benchPlan, benchSchema, platformVideoId, seedHistory, seedWorkspace } from "./seed.js";

export interface EndpointResult {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  /** The least real/bare ratio issue 5 asks for, if it names one. */
  readonly targetRatio: number | null;
  readonly load: MeasuredLoad;
  /** The bare server under the same load (same method), measured right after this endpoint. */
  readonly bareLoad: MeasuredLoad;
  /** Real requests per second over the bare server's, for the same method. */
  readonly ratio: number;
  /** The bare server's CPU per request over the real one's: the ratio on a machine with nothing else to do. */
  readonly cpuRatio: number;
}

export interface HttpSectionResult {
  readonly dialect: BenchDialect;
  readonly jobs: number;
  readonly videos: number;
  readonly seedSeconds: number;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly logLevel: string;
  readonly bare: { readonly get: MeasuredLoad; readonly post: MeasuredLoad };
  readonly endpoints: EndpointResult[];
  /** The real server's VmHWM at the end of the section, MB. */
  readonly serverPeakRssMb: number;
}

/** A throwaway folder with the plan file that lifts the rate limit out of the way. */
export function writePlanFile(): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "vidrows-bench-plans-"));
  const path = join(dir, "plans.json");
  writeFileSync(path, JSON.stringify(benchPlan.file));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

interface Endpoint {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  expectStatus: number;
  targetRatio: number | null;
  /** Served with VIDROWS_REMEMBER_ANSWERS=0: every request runs its queries. */
  forgetful?: boolean;
}

async function check(server: ServerChild, endpoint: Endpoint, headers: Record<string, string>) {
  const response = await fetch(`${server.url}${endpoint.path}`, {
    method: endpoint.method,
    headers,
    body: endpoint.body,
  });
  const text = await response.text();
  if (response.status !== endpoint.expectStatus) {
    throw new Error(
      `${endpoint.name} answered ${response.status}, not ${endpoint.expectStatus}: ${text.slice(0, 500)}`,
    );
  }
  return text;
}

export async function runHttpSection(
  dialect: BenchDialect,
  options: BenchOptions,
): Promise<HttpSectionResult> {
  const database = await freshDatabase(dialect, options.postgresUrl);
  const plans = writePlanFile();
  const servers: ServerChild[] = [];
  try {
    const { seconds: seedSeconds, value: seeded } = await timed(async () => {
      const workspace = await seedWorkspace(database.store);
      const history = await seedHistory(database.store, workspace, {
        jobs: options.jobs,
        maxVideosPerJob: 5,
        runningJobs: 50,
        notHandedOver: 500,
      });
      await settleStatistics(database);
      return { workspace, history };
    });
    log(
      `${dialect}: seeded ${options.jobs} jobs, ${seeded.history.videoCount} videos in ${seedSeconds.toFixed(1)} s`,
    );

    const profileDir = options.profile ? join(options.resultsDir, "profiles") : undefined;
    const bare = await startBareServer({ cpuProfileDir: profileDir });
    servers.push(bare);
    const startReal = (name: string, forgetful = false) =>
      startVidrowsServer(
        {
          DATABASE_URL: database.url,
          VIDROWS_PLANS: plans.path,
          // Submissions are accepted only when a model is configured; with --no-worker nothing calls it.
          VIDROWS_LLM_BASE_URL: "http://127.0.0.1:9/v1",
          LOG_LEVEL: options.logLevel,
          VIDROWS_REMEMBER_ANSWERS: forgetful ? "0" : "1",
        },
        { cpuProfileDir: profileDir, name },
      );
    const real = await startReal(`vidrows-http-${dialect}`);
    servers.push(real);
    // On SQLite, answers are remembered between writes; the same reads with every query run show what
    // a read costs when the database is being written to all the time.
    const forgetful =
      dialect === "sqlite" ? await startReal(`vidrows-http-${dialect}-forgetful`, true) : null;
    if (forgetful) servers.push(forgetful);

    const auth = { authorization: `Bearer ${seeded.workspace.apiKey}` };
    const postBody = JSON.stringify({
      videos: Array.from({ length: 10 }, () => `https://www.youtube.com/watch?v=${platformVideoId()}`),
      schema: benchSchema,
    });
    const reads: Endpoint[] = [
      {
        name: "GET /v1/{job_id}",
        method: "GET",
        path: `/v1/${seeded.history.handedOverJobId}`,
        expectStatus: 200,
        targetRatio: 0.6,
      },
      { name: "GET /v1?limit=25", method: "GET", path: "/v1?limit=25", expectStatus: 200, targetRatio: 0.35 },
      {
        name: "GET /v1?search=<prefix>",
        method: "GET",
        path: `/v1?search=${seeded.history.searchPrefix}`,
        expectStatus: 200,
        targetRatio: 0.35,
      },
      { name: "GET /v1/usage", method: "GET", path: "/v1/usage", expectStatus: 200, targetRatio: 0.6 },
      { name: "GET /v1/keys", method: "GET", path: "/v1/keys", expectStatus: 200, targetRatio: 0.5 },
    ];
    const allEndpoints: Endpoint[] = [
      ...reads,
      ...(forgetful === null
        ? []
        : reads.map((read) => ({
            ...read,
            name: `${read.name}, queries run`,
            targetRatio: null,
            forgetful: true,
          }))),
      // Last, since every request adds a job of 10 videos.
      {
        name: "POST /v1 (10 videos)",
        method: "POST",
        path: "/v1",
        body: postBody,
        expectStatus: 202,
        targetRatio: 0.25,
      },
    ];

    const endpoints =
      options.endpoints.length === 0
        ? allEndpoints
        : allEndpoints.filter((endpoint) => options.endpoints.some((part) => endpoint.name.includes(part)));
    const jsonHeaders = { "content-type": "application/json" };
    const readBody = await check(real, allEndpoints[0] as Endpoint, auth);
    if (!readBody.includes('"rows":null'))
      throw new Error(`the read job still hands rows over: ${readBody.slice(0, 300)}`);
    const searchBody = await check(real, allEndpoints[2] as Endpoint, auth);
    log(
      `${dialect}: search ${seeded.history.searchPrefix} finds ${JSON.parse(searchBody).pagination.total} job(s)`,
    );
    for (const endpoint of allEndpoints.slice(1)) {
      if (endpoint.method === "GET")
        await check(endpoint.forgetful && forgetful ? forgetful : real, endpoint, auth);
    }

    const load = (
      server: ServerChild,
      spec: Omit<LoadSpec, "url" | "connections" | "durationSeconds">,
      path: string,
    ) =>
      measureLoad(
        {
          ...spec,
          url: `${server.url}${path}`,
          connections: options.connections,
          durationSeconds: options.durationSeconds,
        },
        server.pid,
        options.warmupSeconds,
      );
    const bareGet = await load(bare, { method: "GET", headers: {} }, "/");
    log(
      `${dialect}: bare GET ${bareGet.requestsPerSecond.toFixed(0)} req/s, ${bareGet.cpuMicrosPerRequest.toFixed(0)} us CPU/req`,
    );
    const barePost = await load(bare, { method: "POST", headers: jsonHeaders, body: postBody }, "/");
    log(
      `${dialect}: bare POST ${barePost.requestsPerSecond.toFixed(0)} req/s, ${barePost.cpuMicrosPerRequest.toFixed(0)} us CPU/req`,
    );

    // Each endpoint is divided by a bare run taken right after it, not by the first one: on a shared
    // machine the load of other work drifts within a run, and neighbours in time see the same drift.
    const results: EndpointResult[] = [];
    for (const endpoint of endpoints) {
      // When profiling, each endpoint gets a server of its own, so each profile shows one endpoint's hot spots.
      const slug = endpoint.name
        .replace(/[^a-z0-9]+/gi, "-")
        .replace(/^-|-$/g, "")
        .toLowerCase();
      const shared = endpoint.forgetful && forgetful ? forgetful : real;
      const server = profileDir
        ? await startReal(`vidrows-http-${dialect}-${slug}`, endpoint.forgetful === true)
        : shared;
      if (server !== shared) servers.push(server);
      const measured = await load(
        server,
        {
          method: endpoint.method,
          headers: endpoint.method === "POST" ? { ...auth, ...jsonHeaders } : auth,
          body: endpoint.body,
        },
        endpoint.path,
      );
      if (server !== shared) await server.stop();
      const yardstick = await load(
        bare,
        endpoint.method === "POST"
          ? { method: "POST", headers: jsonHeaders, body: postBody }
          : { method: "GET", headers: {} },
        "/",
      );
      const ratio = measured.requestsPerSecond / yardstick.requestsPerSecond;
      const cpuRatio = yardstick.cpuMicrosPerRequest / measured.cpuMicrosPerRequest;
      results.push({
        name: endpoint.name,
        method: endpoint.method,
        path: endpoint.path,
        targetRatio: endpoint.targetRatio,
        load: measured,
        bareLoad: yardstick,
        ratio,
        cpuRatio,
      });
      log(
        `${dialect}: ${endpoint.name} ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${measured.latencyMs.p50} ms, p99 ${measured.latencyMs.p99} ms, ratio ${ratio.toFixed(2)}, ${measured.cpuMicrosPerRequest.toFixed(0)} us CPU/req (ratio ${cpuRatio.toFixed(2)}), non-2xx ${measured.non2xx}, errors ${measured.errors}`,
      );
    }
    const serverPeakRssMb = Math.max(...results.map((r) => r.load.highWaterRssMb));
    return {
      dialect,
      jobs: options.jobs,
      videos: seeded.history.videoCount,
      seedSeconds,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      logLevel: options.logLevel,
      bare: { get: bareGet, post: barePost },
      endpoints: results,
      serverPeakRssMb,
    };
  } finally {
    for (const server of servers) await server.stop();
    plans.remove();
    await database.drop();
  }
}
